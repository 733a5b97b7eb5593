package upload

import (
	"bytes"
	"container/list"
	"sync"
)

// DefaultThumbnailCacheBytes is the default bound of a ThumbnailCache.
const DefaultThumbnailCacheBytes = 64 << 20

// ThumbnailCache keeps made thumbnails, by file and format, up to a bound
// on their total bytes; past it the least recently served go. Thumbnails
// are made one at a time (decoding an image may take hundreds of
// megabytes at Zulip's pixel limit), and a thumbnail asked for by several
// requests at once is made once. Safe for concurrent use.
type ThumbnailCache struct {
	limit int64

	mu      sync.Mutex
	used    int64
	order   *list.List // of *cacheEntry, most recently served first
	entries map[string]*list.Element
	making  map[string]*making

	gen sync.Mutex // held while a thumbnail is made
}

type cacheEntry struct {
	key   string
	thumb Thumbnail
}

// making is a thumbnail being made; done closes when it is.
type making struct {
	done  chan struct{}
	thumb Thumbnail
	err   error
}

// NewThumbnailCache returns an empty cache holding at most limit bytes of
// thumbnails (DefaultThumbnailCacheBytes when limit <= 0). A thumbnail
// larger than the limit is served but not kept.
func NewThumbnailCache(limit int64) *ThumbnailCache {
	if limit <= 0 {
		limit = DefaultThumbnailCacheBytes
	}
	return &ThumbnailCache{limit: limit, order: list.New(), entries: map[string]*list.Element{}, making: map[string]*making{}}
}

// Limit is the most bytes the cache keeps.
func (c *ThumbnailCache) Limit() int64 { return c.limit }

// Used is how many bytes of thumbnails the cache keeps.
func (c *ThumbnailCache) Used() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used
}

// Get returns the thumbnail of pathID in format f, made by build when the
// cache does not hold it.
func (c *ThumbnailCache) Get(pathID string, f ThumbnailFormat, build func() (Thumbnail, error)) (Thumbnail, error) {
	key := pathID + "\x00" + f.Name()
	c.mu.Lock()
	if el, ok := c.entries[key]; ok {
		c.order.MoveToFront(el)
		t := el.Value.(*cacheEntry).thumb
		c.mu.Unlock()
		return t, nil
	}
	if m, ok := c.making[key]; ok {
		c.mu.Unlock()
		<-m.done
		return m.thumb, m.err
	}
	m := &making{done: make(chan struct{})}
	c.making[key] = m
	c.mu.Unlock()

	c.gen.Lock()
	m.thumb, m.err = build()
	c.gen.Unlock()

	c.mu.Lock()
	delete(c.making, key)
	if m.err == nil && int64(len(m.thumb.Data)) <= c.limit {
		c.entries[key] = c.order.PushFront(&cacheEntry{key: key, thumb: m.thumb})
		c.used += int64(len(m.thumb.Data))
		for c.used > c.limit {
			c.evict(c.order.Back())
		}
	}
	c.mu.Unlock()
	close(m.done)
	return m.thumb, m.err
}

// Forget drops every thumbnail of pathID (its file was deleted).
func (c *ThumbnailCache) Forget(pathID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	prefix := pathID + "\x00"
	for key, el := range c.entries {
		if len(key) > len(prefix) && key[:len(prefix)] == prefix {
			c.evict(el)
		}
	}
}

// evict drops one entry. The caller holds c.mu.
func (c *ThumbnailCache) evict(el *list.Element) {
	e := c.order.Remove(el).(*cacheEntry)
	delete(c.entries, e.key)
	c.used -= int64(len(e.thumb.Data))
}

// BytesBlob is a Blob over bytes in memory, such as a thumbnail.
type BytesBlob struct{ *bytes.Reader }

// NewBytesBlob returns a Blob reading b.
func NewBytesBlob(b []byte) BytesBlob { return BytesBlob{bytes.NewReader(b)} }

// Close implements io.Closer; there is nothing to release.
func (BytesBlob) Close() error { return nil }
