package store

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/minizulip/minizulip/message"
)

// benchListSize is the length of the benchmarks' copy list: one user's
// copies in a realm of a million messages.
const benchListSize = 1_000_000

// benchList returns a copy list holding IDs 1 to benchListSize, and the
// same entries in a plain sorted slice, the baseline: the floor no list
// structure goes below.
func benchList() (*userMessages, []userMessage) {
	l := &userMessages{}
	flat := make([]userMessage, 0, benchListSize)
	for id := int64(1); id <= benchListSize; id++ {
		um := newUserMessage(id, message.Read)
		l.Put(um)
		flat = append(flat, um)
	}
	return l, flat
}

// benchIDs are random IDs of the list, and sorted batches of them.
func benchIDs(n int) []int64 {
	rng := rand.New(rand.NewPCG(1, 1))
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = 1 + rng.Int64N(benchListSize)
	}
	return ids
}

// BenchmarkCopyList times the copy list's operations on a list of a
// million entries, each against the same work on a flat sorted slice.
func BenchmarkCopyList(b *testing.B) {
	l, flat := benchList()
	ids := benchIDs(4096)
	flatGet := func(id int64) (userMessage, bool) {
		j, ok := slices.BinarySearchFunc(flat, id, func(um userMessage, id int64) int { return int(um.id() - id) })
		if !ok {
			return 0, false
		}
		return flat[j], true
	}
	b.Run("append/list", func(b *testing.B) {
		l := &userMessages{}
		id := int64(1)
		for b.Loop() {
			l.Put(newUserMessage(id, 0))
			id++
		}
	})
	b.Run("append/baseline=flat-slice", func(b *testing.B) {
		var s []userMessage
		id := int64(1)
		for b.Loop() {
			s = append(s, newUserMessage(id, 0))
			id++
		}
	})
	b.Run("get/list", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if _, ok := l.Get(ids[i%len(ids)]); !ok {
				b.Fatal("missing")
			}
			i++
		}
	})
	b.Run("get/baseline=flat-slice", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if _, ok := flatGet(ids[i%len(ids)]); !ok {
				b.Fatal("missing")
			}
			i++
		}
	})
	const walk = 1000
	b.Run("ascend-1000/list", func(b *testing.B) {
		i, n := 0, 0
		for b.Loop() {
			l.Ascend(ids[i%len(ids)]-walk, func(userMessage) bool { n++; return n%walk != 0 })
			i++
		}
	})
	b.Run("descend-1000/list", func(b *testing.B) {
		i, n := 0, 0
		for b.Loop() {
			l.Descend(ids[i%len(ids)]+walk, func(userMessage) bool { n++; return n%walk != 0 })
			i++
		}
	})
	b.Run("ascend-1000/baseline=flat-slice", func(b *testing.B) {
		i, n := 0, 0
		for b.Loop() {
			j, _ := slices.BinarySearchFunc(flat, ids[i%len(ids)]-walk, func(um userMessage, id int64) int { return int(um.id() - id) })
			for _, um := range flat[j:] {
				n++
				if um.removed() || n%walk == 0 {
					break
				}
			}
			i++
		}
	})
	// A batch of 100 IDs a few hundred apart: a topic's messages.
	batch := func(i int) []int64 {
		start := ids[i%len(ids)] % (benchListSize - 100*300)
		out := make([]int64, 100)
		for k := range out {
			out[k] = start + int64(k*300)
		}
		return out
	}
	batches := make([][]int64, 256)
	for i := range batches {
		batches[i] = batch(i)
	}
	b.Run("each-100/list", func(b *testing.B) {
		i := 0
		for b.Loop() {
			l.each(batches[i%len(batches)], func(um *userMessage) { *um = um.withFlags(um.flags() ^ message.Starred) })
			i++
		}
	})
	b.Run("each-100/baseline=flat-slice", func(b *testing.B) {
		i := 0
		for b.Loop() {
			for _, id := range batches[i%len(batches)] {
				j, _ := slices.BinarySearchFunc(flat, id, func(um userMessage, id int64) int { return int(um.id() - id) })
				flat[j] = flat[j].withFlags(flat[j].flags() ^ message.Starred)
			}
			i++
		}
	})
	dense := make([][]int64, 256)
	for i := range dense {
		dense[i] = make([]int64, 1000)
		for k := range dense[i] {
			dense[i][k] = batches[i][0] + int64(k)
		}
	}
	b.Run("each-1000-dense/list", func(b *testing.B) {
		i := 0
		for b.Loop() {
			l.each(dense[i%len(dense)], func(um *userMessage) { *um = um.withFlags(um.flags() ^ message.Starred) })
			i++
		}
	})
	b.Run("each-1000-dense/baseline=flat-slice", func(b *testing.B) {
		i := 0
		for b.Loop() {
			ids := dense[i%len(dense)]
			j, _ := slices.BinarySearchFunc(flat, ids[0], func(um userMessage, id int64) int { return int(um.id() - id) })
			for k := range ids {
				flat[j+k] = flat[j+k].withFlags(flat[j+k].flags() ^ message.Starred)
			}
			i++
		}
	})
	b.Run("remove-100-and-put-back/list", func(b *testing.B) {
		i := 0
		for b.Loop() {
			bt := batches[i%len(batches)]
			l.removeSorted(bt, nil)
			for _, id := range bt {
				l.Put(newUserMessage(id, message.Read))
			}
			i++
		}
	})
	b.Run("clone-and-first-append/list", func(b *testing.B) {
		id := int64(benchListSize + 1)
		for b.Loop() {
			c := l.clone()
			c.Put(newUserMessage(id, 0))
		}
	})
	b.Run("clone-and-first-append/baseline=append", func(b *testing.B) {
		c := l.clone()
		id := int64(benchListSize + 1)
		for b.Loop() {
			c.Put(newUserMessage(id, 0))
			id++
		}
	})
}
