// Package server exposes a tiny key-value store over HTTP.
package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"
)

// ErrNotFound is returned when a key does not exist.
var ErrNotFound = errors.New("key not found")

// Store is a concurrency-safe map with expiry.
type Store struct {
	mu      sync.RWMutex
	values  map[string]entry
	maxSize int
}

type entry struct {
	value   string
	expires time.Time
}

// NewStore returns an empty store holding at most maxSize keys.
func NewStore(maxSize int) *Store {
	return &Store{values: make(map[string]entry), maxSize: maxSize}
}

// Get returns the value of key, or ErrNotFound.
func (s *Store) Get(key string) (string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	e, ok := s.values[key]
	if !ok || (!e.expires.IsZero() && time.Now().After(e.expires)) {
		return "", ErrNotFound
	}
	return e.value, nil
}

// Set stores value under key for ttl (zero means forever).
func (s *Store) Set(key, value string, ttl time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, exists := s.values[key]; !exists && len(s.values) >= s.maxSize {
		return errors.New("store is full")
	}
	e := entry{value: value}
	if ttl > 0 {
		e.expires = time.Now().Add(ttl)
	}
	s.values[key] = e
	return nil
}

// Delete removes key; deleting a missing key is not an error.
func (s *Store) Delete(key string) {
	s.mu.Lock()
	delete(s.values, key)
	s.mu.Unlock()
}

// Handler serves GET, PUT and DELETE on /kv/<key>.
func (s *Store) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := strings.TrimPrefix(r.URL.Path, "/kv/")
		if key == "" {
			http.Error(w, "missing key", http.StatusBadRequest)
			return
		}
		switch r.Method {
		case http.MethodGet:
			value, err := s.Get(key)
			if err != nil {
				http.Error(w, err.Error(), http.StatusNotFound)
				return
			}
			_ = json.NewEncoder(w).Encode(map[string]string{"key": key, "value": value})
		case http.MethodPut:
			var body struct {
				Value string `json:"value"`
				TTL   int    `json:"ttl_seconds"`
			}
			if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
				http.Error(w, "bad json", http.StatusBadRequest)
				return
			}
			if err := s.Set(key, body.Value, time.Duration(body.TTL)*time.Second); err != nil {
				http.Error(w, err.Error(), http.StatusInsufficientStorage)
				return
			}
			w.WriteHeader(http.StatusNoContent)
		case http.MethodDelete:
			s.Delete(key)
			w.WriteHeader(http.StatusNoContent)
		default:
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		}
	})
}
