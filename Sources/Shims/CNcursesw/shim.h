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

// curses' globals, as functions: Swift 6 refuses to read mutable C globals directly.
static inline WINDOW *imagefeed_stdscr(void) { return stdscr; }
static inline int imagefeed_colors(void) { return COLORS; }
#endif
