/* standalone.c: a main() for a fuzz harness built without libFuzzer.
 *
 *   fuzz_NAME FILE|DIR...
 *
 * Runs LLVMFuzzerTestOneInput once on each FILE and on each regular file
 * in each DIR (not recursive), so that saved crashes and corpora replay in
 * `make check` with any compiler, under ASan or valgrind.  A broken
 * invariant aborts; otherwise prints how many inputs ran and exits 0.
 * Exit 1 if an argument cannot be read. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 1 << 16, len = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            fprintf(stderr, "%s: out of memory\n", path);
            fclose(f);
            return -1;
        }
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap)
            break;
        uint8_t *nb = realloc(buf, cap *= 2);
        if (!nb)
            free(buf);
        buf = nb;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        perror(path);
        free(buf);
        return -1;
    }
    /* Named first, so that a crash says which input it was. */
    fprintf(stderr, "replaying: %s\n", path);
    /* An exact-size copy, as libFuzzer gives, so that ASan sees overreads. */
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) {
        free(buf);
        return -1;
    }
    if (len)
        memcpy(exact, buf, len);
    free(buf);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    return 0;
}

int main(int argc, char **argv)
{
    unsigned long ran = 0;
    int status = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            perror(argv[i]);
            status = 1;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            if (run_file(argv[i]) < 0)
                status = 1;
            else
                ran++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        if (!d) {
            perror(argv[i]);
            status = 1;
            continue;
        }
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            size_t n = strlen(argv[i]) + strlen(e->d_name) + 2;
            char *path = malloc(n);
            if (!path) {
                status = 1;
                break;
            }
            snprintf(path, n, "%s/%s", argv[i], e->d_name);
            if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
                if (run_file(path) < 0)
                    status = 1;
                else
                    ran++;
            }
            free(path);
        }
        closedir(d);
    }
    printf("%s: %lu inputs ran\n", argv[0], ran);
    return status;
}
