/* hashmap.c — an open-addressing hash map from strings to integers. */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hashmap.h"

#define HASHMAP_MIN_CAPACITY    16
#define HASHMAP_MAX_LOAD        75      /* percent */
#define HASHMAP_TOMBSTONE       ((char *)1)
#define FNV_OFFSET_BASIS        1469598103934665603ULL
#define FNV_PRIME               1099511628211ULL

struct entry {
	char     *key;
	int64_t   value;
	uint64_t  hash;
};

struct hashmap {
	struct entry *entries;
	size_t        capacity;
	size_t        count;
	size_t        tombstones;
};

static uint64_t hash_key(const char *key)
{
	uint64_t hash = FNV_OFFSET_BASIS;
	for (const unsigned char *p = (const unsigned char *)key; *p; p++) {
		hash ^= *p;
		hash *= FNV_PRIME;
	}
	return hash;
}

static int is_live(const struct entry *slot)
{
	return slot->key != NULL && slot->key != HASHMAP_TOMBSTONE;
}

struct hashmap *hashmap_create(size_t capacity_hint)
{
	struct hashmap *map = calloc(1, sizeof(*map));
	if (map == NULL)
		return NULL;
	size_t capacity = HASHMAP_MIN_CAPACITY;
	while (capacity < capacity_hint * 2)
		capacity *= 2;
	map->entries = calloc(capacity, sizeof(struct entry));
	if (map->entries == NULL) {
		free(map);
		return NULL;
	}
	map->capacity = capacity;
	return map;
}

void hashmap_destroy(struct hashmap *map)
{
	if (map == NULL)
		return;
	for (size_t i = 0; i < map->capacity; i++) {
		if (is_live(&map->entries[i]))
			free(map->entries[i].key);
	}
	free(map->entries);
	free(map);
}

static struct entry *find_slot(struct entry *entries, size_t capacity,
			       const char *key, uint64_t hash)
{
	size_t index = hash & (capacity - 1);
	struct entry *first_tombstone = NULL;
	for (;;) {
		struct entry *slot = &entries[index];
		if (slot->key == NULL)
			return first_tombstone != NULL ? first_tombstone : slot;
		if (slot->key == HASHMAP_TOMBSTONE) {
			if (first_tombstone == NULL)
				first_tombstone = slot;
		} else if (slot->hash == hash && strcmp(slot->key, key) == 0) {
			return slot;
		}
		index = (index + 1) & (capacity - 1);
	}
}

static int grow(struct hashmap *map)
{
	size_t new_capacity = map->capacity * 2;
	struct entry *fresh = calloc(new_capacity, sizeof(struct entry));
	if (fresh == NULL)
		return -1;
	for (size_t i = 0; i < map->capacity; i++) {
		struct entry *old = &map->entries[i];
		if (!is_live(old))
			continue;
		struct entry *slot = find_slot(fresh, new_capacity, old->key, old->hash);
		*slot = *old;
	}
	free(map->entries);
	map->entries = fresh;
	map->capacity = new_capacity;
	map->tombstones = 0;
	return 0;
}

int hashmap_put(struct hashmap *map, const char *key, int64_t value)
{
	if ((map->count + map->tombstones + 1) * 100 > map->capacity * HASHMAP_MAX_LOAD) {
		if (grow(map) != 0)
			return -1;
	}
	uint64_t hash = hash_key(key);
	struct entry *slot = find_slot(map->entries, map->capacity, key, hash);
	if (is_live(slot)) {
		slot->value = value;
		return 0;
	}
	char *copy = strdup(key);
	if (copy == NULL)
		return -1;
	if (slot->key == HASHMAP_TOMBSTONE)
		map->tombstones--;
	slot->key = copy;
	slot->value = value;
	slot->hash = hash;
	map->count++;
	return 1;
}

int hashmap_get(const struct hashmap *map, const char *key, int64_t *value_out)
{
	uint64_t hash = hash_key(key);
	struct entry *slot = find_slot(map->entries, map->capacity, key, hash);
	if (!is_live(slot))
		return 0;
	if (value_out != NULL)
		*value_out = slot->value;
	return 1;
}

int hashmap_remove(struct hashmap *map, const char *key)
{
	uint64_t hash = hash_key(key);
	struct entry *slot = find_slot(map->entries, map->capacity, key, hash);
	if (!is_live(slot))
		return 0;
	free(slot->key);
	slot->key = HASHMAP_TOMBSTONE;
	map->count--;
	map->tombstones++;
	return 1;
}

size_t hashmap_count(const struct hashmap *map)
{
	return map->count;
}

void hashmap_each(const struct hashmap *map,
		  void (*visit)(const char *key, int64_t value, void *context),
		  void *context)
{
	for (size_t i = 0; i < map->capacity; i++) {
		const struct entry *slot = &map->entries[i];
		if (is_live(slot))
			visit(slot->key, slot->value, context);
	}
}
