"""The Lua scripts of the backends: the atomic commit, the one-round-trip read, and the
lease and check-up schedule scripts. Their arguments and replies are encoded and decoded by
:mod:`.wire`.
"""

from __future__ import annotations

COMMIT_SCRIPT = """
local function log_add(log, events, index, cap, token, event, terms)
  local id = redis.call('XADD', log, '*', 'ek', token)
  redis.call('HSET', events, token, event)
  redis.call('HSET', index, token, id .. terms)
  local excess = redis.call('XLEN', log) - cap
  if excess > 0 then
    for _, entry in ipairs(redis.call('XRANGE', log, '-', '+', 'COUNT', excess)) do
      local f = entry[2]
      for j = 1, #f, 2 do
        if f[j] == 'ek' then
          redis.call('HDEL', events, f[j + 1])
          redis.call('HDEL', index, f[j + 1])
        end
      end
    end
    redis.call('XTRIM', log, 'MAXLEN', cap)
  end
end
local idem_ttl = ARGV[4]
if idem_ttl ~= '' then
  local prev = redis.call('GET', KEYS[2])
  if prev then return {'replayed', prev} end
end
local cur = redis.call('GET', KEYS[1]) or ''
if ARGV[1] == 'guard' and cur ~= ARGV[2] then return {'conflict', cur} end
local i = 9
for _ = 1, tonumber(ARGV[6]) do
  local key = KEYS[tonumber(ARGV[i + 1])]
  local n = tonumber(ARGV[i + 2])
  if ARGV[i] == 'LOGADD' then
    log_add(key, KEYS[tonumber(ARGV[i + 3])], KEYS[tonumber(ARGV[i + 4])], tonumber(ARGV[i + 5]),
            ARGV[i + 6], ARGV[i + 7], ARGV[i + 8])
  else
    redis.call(ARGV[i], key, unpack(ARGV, i + 3, i + 2 + n))
  end
  i = i + 3 + n
end
if ARGV[3] ~= '' then
  redis.call('SET', KEYS[1], ARGV[3])
  redis.call('LPUSH', KEYS[3], ARGV[3] .. '\\n' .. cur .. '\\n' .. ARGV[7])
  redis.call('LTRIM', KEYS[3], 0, tonumber(ARGV[8]) - 1)
  cur = ARGV[3]
end
if idem_ttl ~= '' then redis.call('SET', KEYS[2], ARGV[5], 'EX', idem_ttl) end
return {'committed', cur}
"""
"""KEYS: revision, idempotency record, revision log, then the commands' keys. ARGV: guard
mode, expected revision, new revision (``""``: none), idempotency TTL and result, command
count, log entry body (:func:`changed_fields`), log cap, then the commands.

A command is ``name, key index, n, n arguments``: a Redis command on that key, or ``LOGADD``
(one change event: arguments ``events hash index, erasure index hash index, cap, token,
event JSON, index terms``), which appends the token to the change log's stream, the event to
the events hash and ``"<stream id><terms>"`` to the erasure index, and trims all three to the
cap together, so that an event pushed out of the log leaves no text behind (issue 19)."""

READ_SCRIPT = """
local cur = redis.call('GET', KEYS[1]) or ''
local known = ARGV[1]
local n = tonumber(ARGV[2])
local hist = {}
if n > 0 then hist = redis.call('LRANGE', KEYS[6], 0, n - 1) end
if cur == known then return {cur, hist, 'current'} end
local codes = {'p', 'v', 'o', 'f', 't'}
local hkeys = {p = KEYS[2], v = KEYS[3], o = KEYS[4], f = KEYS[5], t = KEYS[7]}
local max_fields = tonumber(ARGV[3])
if max_fields > 0 and known ~= '' and cur ~= '' then
  local want, seen, count = {}, {}, 0
  local expect, start, found, going = cur, 0, false, true
  while going do
    local chunk = redis.call('LRANGE', KEYS[8], start, start + 15)
    if #chunk == 0 then break end
    for _, entry in ipairs(chunk) do
      local a = string.find(entry, '\\n', 1, true)
      local b = a and string.find(entry, '\\n', a + 1, true)
      if not b or string.sub(entry, 1, a - 1) ~= expect then going = false break end
      local body = string.sub(entry, b + 1)
      if body == '*' then going = false break end
      local flat = cjson.decode(body)
      for j = 1, #flat, 2 do
        local id = flat[j] .. '\\0' .. flat[j + 1]
        if not seen[id] then
          seen[id] = true
          count = count + 1
          local list = want[flat[j]] or {}
          want[flat[j]] = list
          list[#list + 1] = flat[j + 1]
        end
      end
      if count > max_fields then going = false break end
      local prev = string.sub(entry, a + 1, b - 1)
      if prev == known then found, going = true, false break end
      expect = prev
    end
    start = start + 16
  end
  if found then
    local out = {cur, hist, 'delta'}
    for _, code in ipairs(codes) do
      local list = want[code]
      if list then
        out[#out + 1] = code
        out[#out + 1] = list
        out[#out + 1] = redis.call('HMGET', hkeys[code], unpack(list))
      end
    end
    return out
  end
end
local inline = tonumber(ARGV[4])
if inline >= 0 then
  local size = 0
  for _, code in ipairs(codes) do size = size + redis.call('HLEN', hkeys[code]) end
  if size > inline then return {cur, hist, 'page'} end
end
return {cur, hist, 'full', redis.call('HGETALL', KEYS[2]), redis.call('HGETALL', KEYS[3]),
        redis.call('HGETALL', KEYS[4]), redis.call('HGETALL', KEYS[5]),
        redis.call('HGETALL', KEYS[7])}
"""
"""KEYS: :func:`read_keys`. ARGV: the caller's revision (:data:`NO_REVISION`: none), history
snapshots wanted, most delta fields (``0``: no delta, no known revision), largest store
read inline (``-1``: any). Reply:
``{revision, history, kind, ...}``, kind ``current`` | ``delta`` (then ``code, fields,
values`` per changed hash) | ``full`` (then five ``HGETALL``) | ``page``."""

RELEASE_LEASE_SCRIPT = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""
RENEW_LEASE_SCRIPT = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
return 0
"""
COMPLETE_DUE_SCRIPT = """
local score = redis.call('zscore', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then
  return redis.call('zrem', KEYS[1], ARGV[1])
end
return 0
"""
"""Lease and check-up schedule scripts: compare-and-delete, compare-and-extend,
remove-if-unchanged (the coordination keys are global, outside any commit)."""


REWRITE_STREAM_SCRIPT = """
local drop = {}
for i = 1, #ARGV do drop[ARGV[i]] = true end
local entries = redis.call('XRANGE', KEYS[1], '-', '+')
if #entries == 0 then return 0 end
local info = redis.call('XINFO', 'STREAM', KEYS[1])
local last = nil
for j = 1, #info, 2 do if info[j] == 'last-generated-id' then last = info[j + 1] end end
redis.call('DEL', KEYS[1])
local removed, kept = 0, 0
for _, entry in ipairs(entries) do
  if drop[entry[1]] then
    removed = removed + 1
  else
    redis.call('XADD', KEYS[1], entry[1], unpack(entry[2]))
    kept = kept + 1
  end
end
if kept > 0 and last then redis.call('XSETID', KEYS[1], last) end
return removed
"""
"""Rewrite the change log without the entries ``ARGV`` names (stream ids), in one atomic
script. ``XDEL`` only marks an entry deleted and its bytes stay in the stream's nodes, where
``DUMP``, an RDB or an AOF rewrite still finds them (and so do entries the length cap trimmed
from a node still in use); a stream built again from its live entries holds none of them. The
entries keep their ids and the stream its last id, so ids stay increasing. Returns how many
entries were dropped."""


_CLAUSES_LUA = """
local function parse_clauses(argv)
  local clauses = {}
  for i = 1, #argv do
    local groups = {}
    for part in string.gmatch(argv[i], '[^\\n]+') do
      local alts = {}
      for t in string.gmatch(part, '[^\\t]+') do alts[#alts + 1] = ' ' .. t .. ' ' end
      groups[#groups + 1] = alts
    end
    clauses[#clauses + 1] = groups
  end
  return clauses
end
local function satisfies(ix, clauses)
  for _, groups in ipairs(clauses) do
    local all = true
    for _, alts in ipairs(groups) do
      local any = false
      for _, t in ipairs(alts) do
        if string.find(ix, t, 1, true) then any = true; break end
      end
      if not any then all = false; break end
    end
    if all then return true end
  end
  return false
end
"""

LEGACY_ERASE_CANDIDATES_SCRIPT = _CLAUSES_LUA + """
local clauses = parse_clauses(ARGV)
local out = {}
for _, entry in ipairs(redis.call('XRANGE', KEYS[1], '-', '+')) do
  local fields, ix, event = entry[2], nil, nil
  for j = 1, #fields, 2 do
    if fields[j] == 'ix' then ix = fields[j + 1]
    elseif fields[j] == 'event' then event = fields[j + 1] end
  end
  local hit = ix == nil or satisfies(ix, clauses)
  if hit and event then out[#out + 1] = entry[1]; out[#out + 1] = event end
end
return out
"""
"""The inline change events (an older release's, field ``event`` of the stream) a forget may
scrub (issue 19): those whose index terms (the ``ix`` field,
:func:`~..tombstones.event_terms`) satisfy one clause of :meth:`~..tombstones.Erasure
.index_query`, and every event stored without terms (an older release's). KEYS: the change
log. ARGV: one clause each (groups split by newlines, a group's terms by tabs). Returns
``[id, event JSON, …]``; the exact rules run on these alone, in the client."""

ERASE_CANDIDATES_SCRIPT = _CLAUSES_LUA + """
local every = ARGV[1] == '*'
local clauses = every and {} or parse_clauses(ARGV)
local tokens = {}
local index = redis.call('HGETALL', KEYS[3])
for k = 1, #index, 2 do
  if every or satisfies(index[k + 1], clauses) then tokens[#tokens + 1] = index[k] end
end
local out = {}
if #tokens > 0 then
  local events = redis.call('HMGET', KEYS[2], unpack(tokens))
  for k = 1, #tokens do
    if events[k] then out[#out + 1] = tokens[k]; out[#out + 1] = events[k] end
  end
end
local legacy = 0
local first = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)
if #first > 0 then
  local f = first[1][2]
  for j = 1, #f, 2 do if f[j] == 'event' then legacy = 1 end end
end
return {legacy, out}
"""
"""The change events a forget may scrub (issue 19), found in the erasure index alone: the
tokens whose terms (:func:`~..core.erasure_index.event_terms`) satisfy one clause of
:meth:`~..core.tombstones.Erasure.index_query`. The index holds ~150 bytes per event, no
text; only the candidates' event JSON is read. KEYS: the change log's stream, events hash,
erasure index. ARGV: one clause each (groups split by newlines, a group's terms by tabs), or
``*``: every event. Returns ``{legacy, [token, event JSON, …]}``, ``legacy`` 1 when the
stream still holds an older release's inline events (its oldest entry does; new entries go
after them), which :data:`LEGACY_ERASE_CANDIDATES_SCRIPT` then searches."""

DROP_EVENTS_SCRIPT = """
local removed = 0
for i = 1, #ARGV do
  local ix = redis.call('HGET', KEYS[3], ARGV[i])
  if ix then
    local id = string.match(ix, '^[^ ]+')
    if id then redis.call('XDEL', KEYS[1], id) end
    redis.call('HDEL', KEYS[3], ARGV[i])
  end
  removed = removed + redis.call('HDEL', KEYS[2], ARGV[i])
end
return removed
"""
"""Remove change events by token: the event (``HDEL``: a hash keeps no byte of a deleted
field), its index entry and its stream entry (``XDEL``; the stream holds only the token).
KEYS: stream, events hash, erasure index. ARGV: tokens. Returns how many events were
removed. Each event is touched alone: O(events removed)."""

CHANGES_SCRIPT = """
local out = {}
for _, entry in ipairs(redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', tonumber(ARGV[1]))) do
  local f = entry[2]
  for j = 1, #f, 2 do
    if f[j] == 'ek' then
      local event = redis.call('HGET', KEYS[2], f[j + 1])
      if event then out[#out + 1] = event end
    elseif f[j] == 'event' then
      out[#out + 1] = f[j + 1]
    end
  end
end
return out
"""
"""The newest ``ARGV[1]`` change events' JSON, newest first: each stream entry's token looked
up in the events hash (or an older release's inline event). KEYS: stream, events hash."""

__all__ = [
    "CHANGES_SCRIPT",
    "DROP_EVENTS_SCRIPT",
    "ERASE_CANDIDATES_SCRIPT",
    "LEGACY_ERASE_CANDIDATES_SCRIPT",
    "REWRITE_STREAM_SCRIPT",
    "COMMIT_SCRIPT",
    "READ_SCRIPT",
    "RELEASE_LEASE_SCRIPT",
    "RENEW_LEASE_SCRIPT",
    "COMPLETE_DUE_SCRIPT",
]
