-- wrk script: POST the seed traceback (eval/seed-oom-example.txt) to Meilisearch's search, the
-- same text match.lua sends to ilaj, as {"q": "…"}. The body is built once.
-- Usage: wrk -t2 -c32 -d60s --latency -s scripts/load/meili_search.lua http://127.0.0.1:17700/indexes/articles/search
local file = io.open("eval/seed-oom-example.txt", "r")
local text = file:read("*a")
file:close()

-- A JSON string: backslash and quote escaped, every other control character as \u00XX.
local function json_string(s)
  s = s:gsub('[%c"\\]', function(c)
    if c == '"' then return '\\"' end
    if c == '\\' then return '\\\\' end
    if c == '\n' then return '\\n' end
    if c == '\r' then return '\\r' end
    if c == '\t' then return '\\t' end
    return string.format('\\u%04x', c:byte())
  end)
  return '"' .. s .. '"'
end

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"q": ' .. json_string(text) .. '}'
