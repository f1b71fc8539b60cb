/* stb_truetype.c - stb_truetype's implementation, built here with the
 * project's flags rather than taken from libstb, so that the sanitizer
 * builds check every byte it reads from a font. */
#define STB_TRUETYPE_IMPLEMENTATION
#include <stb_truetype.h>
