/* A fixed-size ring buffer of bytes, for the serial driver. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ringbuf.h"

#define RB_MIN_CAPACITY 16

int rb_init(struct ringbuf *rb, uint8_t *storage, size_t capacity)
{
    if (rb == NULL || storage == NULL) {
        return -1;
    }
    if (capacity < RB_MIN_CAPACITY || (capacity & (capacity - 1)) != 0) {
        /* capacity must be a power of two so that masking works */
        return -2;
    }
    rb->data = storage;
    rb->capacity = capacity;
    rb->head = 0;
    rb->tail = 0;
    return 0;
}

size_t rb_used(const struct ringbuf *rb)
{
    return rb->head - rb->tail;
}

size_t rb_free(const struct ringbuf *rb)
{
    return rb->capacity - rb_used(rb);
}

size_t rb_write(struct ringbuf *rb, const uint8_t *src, size_t len)
{
    size_t n = len < rb_free(rb) ? len : rb_free(rb);
    size_t i;

    for (i = 0; i < n; i++) {
        rb->data[(rb->head + i) & (rb->capacity - 1)] = src[i];
    }
    rb->head += n;
    return n;
}

size_t rb_read(struct ringbuf *rb, uint8_t *dst, size_t len)
{
    size_t n = len < rb_used(rb) ? len : rb_used(rb);
    size_t i;

    for (i = 0; i < n; i++) {
        dst[i] = rb->data[(rb->tail + i) & (rb->capacity - 1)];
    }
    rb->tail += n;
    return n;
}

int rb_peek(const struct ringbuf *rb, uint8_t *out)
{
    if (rb_used(rb) == 0) {
        return -1;
    }
    *out = rb->data[rb->tail & (rb->capacity - 1)];
    return 0;
}

void rb_clear(struct ringbuf *rb)
{
    rb->head = 0;
    rb->tail = 0;
    memset(rb->data, 0, rb->capacity);
}
