// shim.h — libedit's native API (histedit.h) for Swift: fixed-argument wrappers over the variadic
// el_set/el_get/history calls, and accessors for C globals Swift 6 cannot touch.
#ifndef USAGE_SHELL_CEDITLINE_SHIM_H
#define USAGE_SHELL_CEDITLINE_SHIM_H

#include <stdio.h>
#include <string.h>
#include <wchar.h>
#include <histedit.h>

typedef char *(*usage_el_prompt_fn)(EditLine *);
typedef unsigned char (*usage_el_command_fn)(EditLine *, int);

static inline FILE *usage_stdin(void) { return stdin; }
static inline FILE *usage_stdout(void) { return stdout; }
static inline FILE *usage_stderr(void) { return stderr; }

/// The prompt callback; `escape` brackets non-printing characters (colour) in the prompt.
static inline int usage_el_set_prompt(EditLine *el, usage_el_prompt_fn fn, char escape) {
    return el_set(el, EL_PROMPT_ESC, fn, escape);
}
/// The function libedit reads each key with (Sources/usage-shell/PromptInput.swift).
static inline int usage_el_set_getcfn(EditLine *el, el_rfunc_t fn) { return el_set(el, EL_GETCFN, fn); }
static inline int usage_el_set_editor(EditLine *el, const char *mode) { return el_set(el, EL_EDITOR, mode); }
/// With 1, libedit restores the terminal around signals and follows SIGWINCH resizes.
static inline int usage_el_set_signal(EditLine *el, int on) { return el_set(el, EL_SIGNAL, on); }
static inline int usage_el_set_clientdata(EditLine *el, void *data) { return el_set(el, EL_CLIENTDATA, data); }
static inline void *usage_el_get_clientdata(EditLine *el) {
    void *data = NULL;
    el_get(el, EL_CLIENTDATA, &data);
    return data;
}
/// Adds the editor command `usage-complete` (Tab's completion) calling `fn`. Through el_wset with
/// wide literals, which libedit keeps as they are: el_set(EL_ADDFN) copies the name and help with
/// wcsdup and never frees them (libedit's eln.c: "XXX: The two strdup's leak"), 200 bytes that
/// LeakSanitizer reported at every exit of the interactive shell.
static inline int usage_el_add_complete_function(EditLine *el, usage_el_command_fn fn) {
    return el_wset(el, EL_ADDFN, L"usage-complete", L"Complete the word under the cursor", fn);
}
static inline int usage_el_bind(EditLine *el, const char *keys, const char *function) {
    return el_set(el, EL_BIND, keys, function, NULL);
}
static inline int usage_el_set_history(EditLine *el, History *h) { return el_set(el, EL_HIST, history, h); }
/// The terminal's columns as libedit last saw them (follows resizes).
static inline int usage_el_columns(EditLine *el) {
    int columns = 0;
    if (el_get(el, EL_GETTC, "co", &columns, NULL) != 0) return 0;
    return columns;
}
static inline int usage_el_refresh(EditLine *el) { return el_set(el, EL_REFRESH); }
/// Puts the terminal in libedit's editing mode now (el_gets does it only after printing the prompt,
/// and leaves it when it returns).
static inline int usage_el_prep_term(EditLine *el) { return el_set(el, EL_PREP_TERM, 1); }
/// 1: libedit's editing mode; 0: the terminal's own (cooked) mode.
static inline int usage_el_set_prep_term(EditLine *el, int editing) { return el_set(el, EL_PREP_TERM, editing); }

/// `n` bytes as one character of the locale's encoding: its length, (size_t)-2 when incomplete,
/// (size_t)-1 when not a character (mbrtowc from a fresh state; UTF-8 has none between characters).
static inline size_t usage_decode_character(wchar_t *character, const char *bytes, size_t n) {
    mbstate_t state;
    memset(&state, 0, sizeof state);
    return mbrtowc(character, bytes, n, &state);
}

static inline int usage_history_set_size(History *h, int size) {
    HistEvent event;
    return history(h, &event, H_SETSIZE, size);
}
static inline int usage_history_set_unique(History *h, int on) {
    HistEvent event;
    return history(h, &event, H_SETUNIQUE, on);
}
static inline int usage_history_enter(History *h, const char *line) {
    HistEvent event;
    return history(h, &event, H_ENTER, line);
}

#endif
