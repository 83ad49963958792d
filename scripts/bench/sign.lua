-- wrk script: signs every request as docs/signing.md says (MD5 over
-- app_key + timestamp + nonce + sorted_params + app_secret), with a fresh nonce
-- per request, so the server runs its full verification including the nonce cache.
--
-- usage: wrk -s sign.lua URL -- METHOD PATH BODY SORTED_PARAMS RUN_ID ACCESS_TOKEN [SESSIONS [SPAN [PAUSE_MS]]]
-- With SESSIONS, requests name one of that many mock sessions per thread
-- (X-Accord-Session) in turn, SPAN consecutive requests each (default 1).
-- With PAUSE_MS, each connection waits that long before each request: C connections
-- then send at most C * 1000 / PAUSE_MS requests a second (a fixed rate, not the most).
local bit = require("bit")
local band, bor, bxor, bnot, rol, tobit, tohex, bswap =
    bit.band, bit.bor, bit.bxor, bit.bnot, bit.rol, bit.tobit, bit.tohex, bit.bswap

local K, S = {}, {
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
    5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
    4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
    6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
}
for i = 0, 63 do K[i] = tobit(math.floor(math.abs(math.sin(i + 1)) * 4294967296)) end

local function md5(message)
    local length = #message
    local bits = length * 8
    message = message .. "\128" .. string.rep("\0", (55 - length) % 64)
        .. string.char(band(bits, 255), band(bit.rshift(bits, 8), 255), band(bit.rshift(bits, 16), 255),
                       band(bit.rshift(bits, 24), 255), 0, 0, 0, 0)
    local a0, b0, c0, d0 = tobit(0x67452301), tobit(0xefcdab89), tobit(0x98badcfe), tobit(0x10325476)
    local M = {}
    for chunk = 1, #message, 64 do
        for i = 0, 15 do
            local p = chunk + i * 4
            local b1, b2, b3, b4 = message:byte(p, p + 3)
            M[i] = tobit(b1 + b2 * 256 + b3 * 65536 + b4 * 16777216)
        end
        local A, B, C, D = a0, b0, c0, d0
        for i = 0, 63 do
            local F, g
            if i < 16 then F, g = bor(band(B, C), band(bnot(B), D)), i
            elseif i < 32 then F, g = bor(band(D, B), band(bnot(D), C)), (5 * i + 1) % 16
            elseif i < 48 then F, g = bxor(B, C, D), (3 * i + 5) % 16
            else F, g = bxor(C, bor(B, bnot(D))), (7 * i) % 16 end
            F = tobit(F + A + K[i] + M[g])
            A, D, C = D, C, B
            B = tobit(B + rol(F, S[i + 1]))
        end
        a0, b0, c0, d0 = tobit(a0 + A), tobit(b0 + B), tobit(c0 + C), tobit(d0 + D)
    end
    return tohex(bswap(a0)) .. tohex(bswap(b0)) .. tohex(bswap(c0)) .. tohex(bswap(d0))
end

local counter, prefix = 0, "w"
local method, path, body, sorted, token = "GET", "/", nil, "", "none"
local sessions, span, pause = 0, 1, 0

local threads = 0

function setup(thread)
    threads = threads + 1
    thread:set("thread_prefix", "t" .. threads)
end

function init(args)
    -- args[5] names the run, so no two runs (or threads) ever send the same nonce.
    prefix = (args[5] or "run") .. (thread_prefix or "t0")
    method, path, body, sorted, token = args[1] or "GET", args[2] or "/", args[3], args[4] or "", args[6] or "none"
    sessions = tonumber(args[7] or "0") or 0
    span = math.max(1, tonumber(args[8] or "1") or 1)
    pause = tonumber(args[9] or "0") or 0
    if body == "" then body = nil end
end

function delay()
    return pause
end

function request()
    counter = counter + 1
    local timestamp = tostring(os.time())
    local nonce = prefix .. "-" .. counter
    local headers = {
        ["X-App-Key"] = "dev_app_key", ["X-Timestamp"] = timestamp, ["X-Nonce"] = nonce,
        ["X-Sign"] = md5("dev_app_key" .. timestamp .. nonce .. sorted .. "dev_app_secret"),
        ["X-Device-Id"] = "bench", ["X-OS"] = "ios", ["X-App-Version"] = "1.2.0",
        ["Authorization"] = "Bearer " .. token,
    }
    if body then headers["Content-Type"] = "application/json" end
    if sessions > 0 then headers["X-Accord-Session"] = prefix .. "-" .. (math.floor(counter / span) % sessions) end
    return wrk.format(method, path, headers, body)
end
