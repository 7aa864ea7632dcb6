#include <stdio.h>
#include <string.h>

struct point {
    int x;
    int y;
};

static int sum(const int *values, int count) {
    int total = 0;
    for (int i = 0; i < count; i++) {
        total += values[i];
    }
    return total;
}

static void show(struct point p) {
    printf("(%d, %d)\n", p.x, p.y);
}

int main(void) {
    int values[] = {1, 2, 3};
    struct point p = {1, 2};
    char name[16];
    strcpy(name, "origin");
    show(p);
    if (sum(values, 3) > 5) {
        printf("%s: %d\n", name, sum(values, 3));
    }
    return 0;
}
