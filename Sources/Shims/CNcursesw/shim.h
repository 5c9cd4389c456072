#ifndef IMAGEFEED_CNCURSESW_SHIM_H
#define IMAGEFEED_CNCURSESW_SHIM_H
// Wide-character curses: cchar_t, setcchar, add_wch and friends need these before the header.
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <locale.h>
#include <langinfo.h>
#include <ncursesw/curses.h>
#include <ncursesw/term.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/ioctl.h>
#include <fcntl.h>

// curses' globals, as functions: Swift 6 refuses to read mutable C globals directly.
static inline WINDOW *imagefeed_stdscr(void) { return stdscr; }
static inline int imagefeed_colors(void) { return COLORS; }
static inline int imagefeed_color_pairs(void) { return COLOR_PAIRS; }
// The row curses last left the terminal's cursor in (what its next output starts from).
static inline int imagefeed_cursor_row(void) { return getcury(curscr); }

// An anonymous file in memory (memfd_create, Linux 3.17+), where curses' output is caught; -1 when the
// kernel has none (the caller then uses a temporary file).
static inline int imagefeed_memory_file(void) {
#ifdef SYS_memfd_create
    return (int)syscall(SYS_memfd_create, "image-feed-frame", 1 /* MFD_CLOEXEC */);
#else
    return -1;
#endif
}

// The terminal's size in cells from its descriptor; 0 when it is not a terminal.
static inline int imagefeed_window_size(int descriptor, int *out_rows, int *out_cols) {
    struct winsize size;
    if (ioctl(descriptor, TIOCGWINSZ, &size) != 0 || size.ws_row == 0 || size.ws_col == 0) return 0;
    *out_rows = size.ws_row;
    *out_cols = size.ws_col;
    return 1;
}

// What the terminfo entry `name` says, without starting curses: 1 and its colours and RGB flag when this
// machine knows the entry, 0 when it does not. Whatever terminal curses had set up stays the current one.
static inline int imagefeed_terminfo(const char *name, int *colors, int *rgb) {
    TERMINAL *saved = cur_term;
    int error = 0;
    if (setupterm(name, 1, &error) != OK) {
        set_curterm(saved);
        return 0;
    }
    *colors = tigetnum("colors");
    *rgb = tigetflag("RGB") > 0;
    TERMINAL *made = set_curterm(saved);
    if (made != saved) del_curterm(made);
    return 1;
}
#endif
