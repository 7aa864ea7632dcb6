package main

import (
	"fmt"
	"strings"
)

type Stack struct {
	items []string
}

func (s *Stack) Push(item string) {
	s.items = append(s.items, item)
}

func (s *Stack) Pop() (string, bool) {
	if len(s.items) == 0 {
		return "", false
	}
	last := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return last, true
}

func main() {
	s := &Stack{}
	for _, word := range strings.Fields("a b c") {
		s.Push(word)
	}
	top, ok := s.Pop()
	fmt.Println("top", top, ok)
	counts := map[string]int{"a": 1, "b": 2}
	fmt.Printf("%v\n", counts)
}
