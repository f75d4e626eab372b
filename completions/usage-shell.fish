function __usage-shell_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __usage-shell_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __usage-shell_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __usage-shell_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __usage-shell_parse_tokens -S
    set -l unparsed_tokens (__usage-shell_tokens -pc)
    switch $unparsed_tokens[1]
    case 'usage-shell'
        __usage-shell_parse_subcommand 0 'db=' 'tz=' 'device=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'shell'
            __usage-shell_parse_subcommand -r 1 'db=' 'tz=' 'device=' 'format=' 'timeout=' 'raw-csv' 'day=' 'week-start=' 'data-tz=' 'columns=' 'color=' 'glyphs=' 'accessible' 'width=' 'c=+' 'f=' 'bail' 'no-history' 'version' 'h/help'
        case 'import'
            __usage-shell_parse_subcommand -r 1 'db=' 'tz=' 'device=' 'format=' 'timeout=' 'data-tz=' 'columns=' 'version' 'h/help'
        case 'export'
            __usage-shell_parse_subcommand -r 1 'force' 'db=' 'tz=' 'device=' 'format=' 'raw-csv' 'day=' 'week-start=' 'version' 'h/help'
        case 'record'
            __usage-shell_parse_subcommand 0 'idle=' 'backend=' 'once' 'enable' 'disable' 'on-limit=' 'db=' 'tz=' 'device=' 'version' 'h/help'
        case 'web-host'
            __usage-shell_parse_subcommand -r 1 'manifest=' 'install' 'uninstall' 'db=' 'tz=' 'device=' 'version' 'h/help'
        case 'help'
            __usage-shell_parse_subcommand -r 1 'version'
        end
    end
end

function __usage-shell_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __usage-shell_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __usage-shell_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __usage-shell_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__usage-shell_tokens -p)
    if test -z "$(__usage-shell_tokens -t)"
        set -l index (count (__usage-shell_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'usage-shell' -f
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell" db' -l 'db' -d 'The store: imported sessions and tracked time; a SQLite file, or a PostgreSQL server (postgresql://… or a libpq key=value string); default: $USAGE_SHELL_DB, else $XDG_DATA_HOME/usage-shell/usage.sqlite (~/.local/share/…).' -rF
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell" tz' -l 'tz' -d 'The time zone days are cut in (IANA name or UTC); default: $TZ, else the system\'s.' -rfka ''
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell" device' -l 'device' -d 'A device of the store: the one import files its sessions under and record records as (default: $USAGE_SHELL_DEVICE, else this machine\'s host name; ActivityWatch names its own hosts), the one the shell and export show (default: every device).' -rfka ''
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell" version' -l 'version' -d 'Show the version.'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_positional "usage-shell" -eq 1' -fa 'shell' -d 'The shell (the default: usage-shell [SOURCE...] [-c COMMAND]...): loads the sources, then runs -c, -f or standard input\'s commands, or the prompt.'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_positional "usage-shell" -eq 1' -fa 'import' -d 'Put sources into the store, each session once however often they are imported (for cron).'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_positional "usage-shell" -eq 1' -fa 'export' -d 'Write the store out: into another store, or its sessions or a day\'s app list to a file.'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_positional "usage-shell" -eq 1' -fa 'record' -d 'Record the desktop into the store: one session per app focused without a break while you are not idle.'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_positional "usage-shell" -eq 1' -fa 'web-host' -d 'The browser extension\'s native-messaging host: the site in front in the browser, written into the store.'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_positional "usage-shell" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_positional "usage-shell shell" -ge 1' -F
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell shell" db' -l 'db' -d 'The store: imported sessions and tracked time; a SQLite file, or a PostgreSQL server (postgresql://… or a libpq key=value string); default: $USAGE_SHELL_DB, else $XDG_DATA_HOME/usage-shell/usage.sqlite (~/.local/share/…).' -rF
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell shell" tz' -l 'tz' -d 'The time zone days are cut in (IANA name or UTC); default: $TZ, else the system\'s.' -rfka ''
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell shell" device' -l 'device' -d 'A device of the store: the one import files its sessions under and record records as (default: $USAGE_SHELL_DEVICE, else this machine\'s host name; ActivityWatch names its own hosts), the one the shell and export show (default: every device).' -rfka ''
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell shell" format' -l 'format' -d 'Output format: table (the default), json (one JSON document a command) or csv (RFC 4180, the JSON\'s fields).' -rfka 'table json csv'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell shell" timeout' -l 'timeout' -d 'How long a load waits for a pipe, FIFO or HTTP server that sends nothing: seconds, or 2m, 1h (1 s to 24 h; default 30).' -rfka ''
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell shell" raw-csv' -l 'raw-csv' -d 'Write CSV cells as they are, without the \' that keeps a spreadsheet from running a cell as a formula.'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell shell" day' -l 'day' -d 'The day to select (the shell; export report FILE): YYYY-MM-DD, today, yesterday, prev, next, first, last, +N, -N, monday…sunday.' -rfka 'today yesterday tomorrow prev next first last monday tuesday wednesday thursday friday saturday sunday'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell shell" week-start' -l 'week-start' -d 'The day a calendar week begins on (week, a RANGE\'s week, the timesheet, the calendar): monday (default) or sunday.' -rfka 'monday sunday'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell shell" data-tz' -l 'data-tz' -d 'The zone a CSV\'s times without a UTC offset are read in (IANA name or UTC); default: the selected zone (--tz).' -rfka ''
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell shell" columns' -l 'columns' -d 'Which CSV column holds which field, when its header\'s names do not say: FIELD=COLUMN pairs (fields: id, app, category, start, end, duration), e.g. app=Program,start=From,end=To.' -rfka ''
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell shell" color' -l 'color' -d 'Colour: auto (when stdout is a terminal, NO_COLOR unset and TERM not dumb), always, never, or a depth: 16, 256 or truecolor (auto and always take the depth COLORTERM and TERM announce).' -rfka 'auto always never 16 256 truecolor'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell shell" glyphs' -l 'glyphs' -d 'Chart glyphs: auto (Unicode when the locale is UTF-8), unicode or ascii.' -rfka 'auto unicode ascii'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell shell" accessible' -l 'accessible' -d 'Accessible output: charts become a title, a sentence and one line per data point (also ACCESSIBLE=1).'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell shell" width' -l 'width' -d 'Width of table output in terminal cells (20–1000); default: the terminal\'s, else $COLUMNS, else 80.' -rfka ''
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell shell"' -s 'c' -d 'Run a command (repeatable), then exit.' -rfka '(__usage-shell_custom_completion ---completion shell -- -c (count (__usage-shell_tokens -pc)) (__usage-shell_tokens -tC))'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell shell" f' -s 'f' -d 'Run the commands of a script file, one per line, then exit.' -rF
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell shell" bail' -l 'bail' -d 'Stop at the first command that fails.'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell shell" no-history' -l 'no-history' -d 'Keep no history of this interactive session (read none, write none).'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell shell" version' -l 'version' -d 'Show the version.'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell shell" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_positional "usage-shell import" -ge 1' -F
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell import" db' -l 'db' -d 'The store: imported sessions and tracked time; a SQLite file, or a PostgreSQL server (postgresql://… or a libpq key=value string); default: $USAGE_SHELL_DB, else $XDG_DATA_HOME/usage-shell/usage.sqlite (~/.local/share/…).' -rF
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell import" tz' -l 'tz' -d 'The time zone days are cut in (IANA name or UTC); default: $TZ, else the system\'s.' -rfka ''
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell import" device' -l 'device' -d 'A device of the store: the one import files its sessions under and record records as (default: $USAGE_SHELL_DEVICE, else this machine\'s host name; ActivityWatch names its own hosts), the one the shell and export show (default: every device).' -rfka ''
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell import" format' -l 'format' -d 'Output format: table (the default), json (one JSON document a command) or csv (RFC 4180, the JSON\'s fields).' -rfka 'table json csv'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell import" timeout' -l 'timeout' -d 'How long a load waits for a pipe, FIFO or HTTP server that sends nothing: seconds, or 2m, 1h (1 s to 24 h; default 30).' -rfka ''
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell import" data-tz' -l 'data-tz' -d 'The zone a CSV\'s times without a UTC offset are read in (IANA name or UTC); default: the selected zone (--tz).' -rfka ''
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell import" columns' -l 'columns' -d 'Which CSV column holds which field, when its header\'s names do not say: FIELD=COLUMN pairs (fields: id, app, category, start, end, duration), e.g. app=Program,start=From,end=To.' -rfka ''
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell import" version' -l 'version' -d 'Show the version.'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell import" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_positional "usage-shell export" -ge 1' -F
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell export" force' -l 'force' -d 'Replace a file that is already there; merge into a store that is there already.'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell export" db' -l 'db' -d 'The store: imported sessions and tracked time; a SQLite file, or a PostgreSQL server (postgresql://… or a libpq key=value string); default: $USAGE_SHELL_DB, else $XDG_DATA_HOME/usage-shell/usage.sqlite (~/.local/share/…).' -rF
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell export" tz' -l 'tz' -d 'The time zone days are cut in (IANA name or UTC); default: $TZ, else the system\'s.' -rfka ''
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell export" device' -l 'device' -d 'A device of the store: the one import files its sessions under and record records as (default: $USAGE_SHELL_DEVICE, else this machine\'s host name; ActivityWatch names its own hosts), the one the shell and export show (default: every device).' -rfka ''
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell export" format' -l 'format' -d 'Output format: table (the default), json (one JSON document a command) or csv (RFC 4180, the JSON\'s fields).' -rfka 'table json csv'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell export" raw-csv' -l 'raw-csv' -d 'Write CSV cells as they are, without the \' that keeps a spreadsheet from running a cell as a formula.'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell export" day' -l 'day' -d 'The day to select (the shell; export report FILE): YYYY-MM-DD, today, yesterday, prev, next, first, last, +N, -N, monday…sunday.' -rfka 'today yesterday tomorrow prev next first last monday tuesday wednesday thursday friday saturday sunday'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell export" week-start' -l 'week-start' -d 'The day a calendar week begins on (week, a RANGE\'s week, the timesheet, the calendar): monday (default) or sunday.' -rfka 'monday sunday'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell export" version' -l 'version' -d 'Show the version.'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell export" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell record" idle' -l 'idle' -d 'No keyboard or pointer input for this long is idle, not counted: 45s, 3m, 1h (1 s to 1 h).' -rfka ''
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell record" backend' -l 'backend' -d 'Force a backend: sway, i3, gnome, kde, wlroots or x11 (default: the first that opens).' -rfka 'sway i3 gnome kde wlroots x11'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell record" once' -l 'once' -d 'Print what the recorder sees now (backend, app, idle time, where the screen lock comes from; and, when no usage-shell-record.service runs, how to start one with the session) and exit.'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell record" enable' -l 'enable' -d 'Set up the systemd user unit to record every session: on GNOME the usage-shell shell extension enabled, under i3, sway or openbox the one line their config needs, then systemctl --user enable (when that fails, the rest is undone); then exit.'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell record" disable' -l 'disable' -d 'Undo --enable\'s lasting part: systemctl --user disable the unit, and remove the browsers\' native-messaging host manifests; then exit.'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell record" on-limit' -l 'on-limit' -d 'A command run (by /bin/sh) when a daily limit is crossed, with USAGE_SHELL_LIMIT_NAME, _KIND, _SECONDS, USAGE_SHELL_USED_SECONDS and USAGE_SHELL_LIMIT_TEXT set.' -rfka ''
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell record" db' -l 'db' -d 'The store: imported sessions and tracked time; a SQLite file, or a PostgreSQL server (postgresql://… or a libpq key=value string); default: $USAGE_SHELL_DB, else $XDG_DATA_HOME/usage-shell/usage.sqlite (~/.local/share/…).' -rF
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell record" tz' -l 'tz' -d 'The time zone days are cut in (IANA name or UTC); default: $TZ, else the system\'s.' -rfka ''
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell record" device' -l 'device' -d 'A device of the store: the one import files its sessions under and record records as (default: $USAGE_SHELL_DEVICE, else this machine\'s host name; ActivityWatch names its own hosts), the one the shell and export show (default: every device).' -rfka ''
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell record" version' -l 'version' -d 'Show the version.'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell record" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell web-host" manifest' -l 'manifest' -d 'Print the host manifest for chromium, chrome or firefox (its path: this binary) and exit.' -rfka 'chromium chrome firefox'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell web-host" install' -l 'install' -d 'Install the host manifests for Chromium, Chrome and Firefox in your folders (as record --enable does, without the recorder\'s unit) and exit.'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell web-host" uninstall' -l 'uninstall' -d 'Remove the host manifests --install (or record --enable) wrote and exit.'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell web-host" db' -l 'db' -d 'The store: imported sessions and tracked time; a SQLite file, or a PostgreSQL server (postgresql://… or a libpq key=value string); default: $USAGE_SHELL_DB, else $XDG_DATA_HOME/usage-shell/usage.sqlite (~/.local/share/…).' -rF
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell web-host" tz' -l 'tz' -d 'The time zone days are cut in (IANA name or UTC); default: $TZ, else the system\'s.' -rfka ''
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell web-host" device' -l 'device' -d 'A device of the store: the one import files its sessions under and record records as (default: $USAGE_SHELL_DEVICE, else this machine\'s host name; ActivityWatch names its own hosts), the one the shell and export show (default: every device).' -rfka ''
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell web-host" version' -l 'version' -d 'Show the version.'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell web-host" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'usage-shell' -n '__usage-shell_should_offer_completions_for_flags_or_options "usage-shell help" version' -l 'version' -d 'Show the version.'
