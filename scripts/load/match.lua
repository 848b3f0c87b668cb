-- wrk script: POST the seed traceback (eval/seed-oom-example.txt) to /api/v1/match.
-- Usage: wrk -t2 -c32 -d60s --latency -s scripts/load/match.lua http://127.0.0.1:18415/api/v1/match
local file = io.open("eval/seed-oom-example.txt", "r")
local text = file:read("*a")
file:close()

local function json_string(s)
  s = s:gsub('\\', '\\\\'):gsub('"', '\\"'):gsub('\n', '\\n'):gsub('\r', '\\r'):gsub('\t', '\\t')
  return '"' .. s .. '"'
end

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"text": ' .. json_string(text) .. ', "lang": "fr"}'
