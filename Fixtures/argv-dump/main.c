// argv-dump: a program under test written in C that does not link AutomationHost.
// It prints what it received as one JSON object, {"argv": [...], "env": {...}, "cwd": "..."},
// so tests can check the exact argv and environment sut-launch documents.
// ARGV_DUMP_EXIT=N makes it exit with N.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

static void put_json_string(const char *s, size_t n) {
    putchar('"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') { putchar('\\'); putchar(c); }
        else if (c < 0x20) printf("\\u%04x", c);
        else putchar(c);
    }
    putchar('"');
}

int main(int argc, char **argv) {
    printf("{\"argv\":[");
    for (int i = 0; i < argc; i++) {
        if (i) putchar(',');
        put_json_string(argv[i], strlen(argv[i]));
    }
    printf("],\"env\":{");
    int first = 1;
    for (char **e = environ; *e; e++) {
        const char *eq = strchr(*e, '=');
        if (!eq) continue;
        if (!first) putchar(',');
        first = 0;
        put_json_string(*e, (size_t)(eq - *e));
        putchar(':');
        put_json_string(eq + 1, strlen(eq + 1));
    }
    char cwd[4096];
    printf("},\"cwd\":");
    if (getcwd(cwd, sizeof cwd)) put_json_string(cwd, strlen(cwd)); else printf("null");
    printf("}\n");
    const char *code = getenv("ARGV_DUMP_EXIT");
    return code ? atoi(code) : 0;
}
