# scripts/bench/apps.jq — owns the benchmark's jq baseline: one UTC day's top 5 apps of a sessions file.
#
#   jq --arg day 2026-02-23 -f scripts/bench/apps.jq FILE
#
# Prints, on one line with -c (pretty otherwise), the shape of
# `usage-shell FILE --day DAY --tz UTC --format json -c "apps top 5"`:
#   {"day","time_zone","total_seconds","apps":[{"name","category","seconds","sessions","share"}]}
# docs/DATA.md §1: a row counts when it is an object, both timestamps parse, end > start, and app_name and
#   category are strings or null. Timestamps go through fromdateiso8601 (whole seconds, "…Z" only)
#   after the fraction and offset are taken off by hand; a row whose timestamp makes that fail is
#   skipped (try … catch). fromdateiso8601 rolls impossible dates over (2026-02-30 = March 2):
#   days 29 to 31 are checked by writing the date back. Fractions are kept to the microsecond
#   and clipped durations summed in whole microseconds, so the sums are exact, as the project's.
# docs/DATA.md §2: trimmed names, "(unknown)" and "Other" — applied to the few distinct raw names after
#   grouping, not to every row.
# docs/DATA.md §4: clipped to [DAY 00:00, DAY+1 00:00) UTC; per app: seconds, sessions with clipped time
#   > 0, the category with the most clipped time (ties: first name), share; seconds descending,
#   then name (jq compares strings by UTF-8 bytes, which is Unicode scalar order).

# Unicode White_Space, as the project trims.
def ws: "[\t\n\u000b\u000c\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+";
def trim: sub("^" + ws; "") | sub(ws + "$"; "");
def app_name: (. // "" | trim) as $n | if $n == "" then "(unknown)" else $n end;
def category_name: (. // "" | trim) as $n
  | if ($n | ascii_downcase) | (. == "" or . == "other" or . == "others") then "Other" else $n end;

# fromdateiso8601 of "YYYY-MM-DDTHH:MM:SSZ", also an error for impossible dates (2026-02-30),
# which it would roll over: those are checked by writing the date back (only days 29 to 31).
def whole_seconds:
  fromdateiso8601 as $x
  | if .[8:10] > "28" and ($x | todate | .[0:10]) != .[0:10] then error("no such date") else $x end;

# Seconds since the epoch of an RFC 3339 timestamp; an error when it is not one.
def instant:
  if type != "string" then error("not a string")
  elif length == 20 and .[19:] == "Z" and .[10:11] == "T" then whole_seconds  # the common case
  else
    . as $s
    | ($s[10:11] | if . == "T" or . == "t" then . else error("no T") end)
    | ([$s[19:] | capture("^(?<f>\\.[0-9]{1,9})?(?:(?<z>[Zz])|(?<sign>[-+])(?<h>[0-9]{2}):(?<m>[0-9]{2}))$")]
       | if length == 1 then .[0] else error("bad tail") end) as $t
    | if $t.z == null and (($t.h | tonumber) > 23 or ($t.m | tonumber) > 59) then error("bad offset") else . end
    | ($s[0:10] + "T" + $s[11:19] + "Z" | whole_seconds)
      + (if $t.f == null then 0 else "0" + $t.f[0:7] | tonumber end)  # kept to the microsecond
      - (if $t.z != null then 0
         else ($t.h | tonumber) * 3600 + ($t.m | tonumber) * 60 | if $t.sign == "-" then -. else . end
         end)
  end;

def string_or_null: type == "string" or type == "null";

($day + "T00:00:00Z" | fromdateiso8601) as $d0
| ($d0 + 86400) as $d1
# per raw app name: {c: {raw category: microseconds}, n: sessions}
| reduce (
    .[]
    | select(type == "object" and (.app_name | string_or_null) and (.category | string_or_null))
    | (try [(.start_timestamp, .end_timestamp) | instant] catch null) as $t
    | select($t != null and $t[1] > $t[0])
    | (if $t[0] > $d0 then $t[0] else $d0 end) as $lo
    | (if $t[1] < $d1 then $t[1] else $d1 end) as $hi
    | select($hi > $lo)
    | [.app_name // "", .category // "", (($hi - $lo) * 1e6 | round)]  # whole microseconds: exact sums
  ) as $r ({}; .[$r[0]].c[$r[1]] += $r[2] | .[$r[0]].n += 1)
# normalise the names, merging what becomes the same app or category
| [ to_entries[]
    | {app: (.key | app_name), n: .value.n,
       cats: [.value.c | to_entries[] | {name: (.key | category_name), s: .value}]} ]
| [ group_by(.app)[]
    | {name: .[0].app, sessions: (map(.n) | add),
       cats: ([.[].cats[]] | group_by(.name) | map({name: .[0].name, s: (map(.s) | add)}))}
    | {name, category: (.cats | sort_by(-.s, .name) | .[0].name), seconds: (.cats | map(.s) | add), sessions} ]
| (map(.seconds) | add // 0) as $total
| { day: $day,
    time_zone: "UTC",
    total_seconds: ($total / 1e6),
    apps: (sort_by(-.seconds, .name) | .[0:5]
           | map({name, category, seconds: (.seconds / 1e6), sessions, share: (.seconds / $total)})) }
