"""The Lua scripts of the backends: the atomic commit, the one-round-trip read, and the
lease and check-up schedule scripts. Their arguments and replies are encoded and decoded by
:mod:`.wire`.
"""

from __future__ import annotations

COMMIT_SCRIPT = """
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
  redis.call(ARGV[i], key, unpack(ARGV, i + 3, i + 2 + n))
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
count, log entry body (:func:`changed_fields`), log cap, then the commands."""

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


__all__ = [
    "COMMIT_SCRIPT",
    "READ_SCRIPT",
    "RELEASE_LEASE_SCRIPT",
    "RENEW_LEASE_SCRIPT",
    "COMPLETE_DUE_SCRIPT",
]
