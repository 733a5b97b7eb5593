package realm

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"unsafe"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/fixture"
)

// dataFormat is the format version of a data directory's snapshot and
// journal; a file of a later version is refused.
const dataFormat = 1

// A snapshot file is one line of JSON, its snapshotHeader, then the body
// the header describes: a snapshotBody in JSON.

// snapshotHeader is a snapshot file's first line.
type snapshotHeader struct {
	Format  int    `json:"minizulip_data"`
	RealmID string `json:"realm_id"`
	Seq     uint64 `json:"snapshot"`
	Length  int64  `json:"length"`
	// Messages is the length of the binary messages after the body
	// (durable_messages.go); the CRC covers both.
	Messages int64  `json:"messages"`
	CRC      uint32 `json:"crc32c"`
}

// snapshotBody is the realm: its fixture document (fixture_dump.go) and
// what a fixture leaves out that a restart must keep.
type snapshotBody struct {
	Fixture json.RawMessage `json:"fixture"`
	// Counters are the tables' ID counters ("messages.nextID"): a fixture's
	// load numbers from its highest ID, and an ID must never be given
	// twice (a deleted message's, say).
	Counters map[string]int64 `json:"counters"`
	// Edits are messages' edit histories, oldest first, by message ID.
	Edits map[int64][]message.Edit `json:"edits,omitempty"`
	// Tables are the tables but messages exactly as in memory, by name
	// (durable_codec.go): what fixtures leave out (passwords, avatars,
	// invitations, pending email changes, push devices, exports,
	// recipient numbering…) comes back from them.
	Tables json.RawMessage `json:"tables"`
	// KeptFiles are, in a tables record (durable_tables.go), the path IDs
	// of the uploads whose bytes the fixture leaves out: the snapshot or
	// an earlier record of the journal holds them.
	KeptFiles []string `json:"kept_files,omitempty"`
	// Messages are, in a tables record, the messages the change added, in
	// the binary form (durable_messages.go).
	Messages []byte `json:"messages,omitempty"`
	// Removed are, in a tables record, the IDs of the messages the change
	// removed (a topic's deletion), ascending.
	Removed []int64 `json:"removed_messages,omitempty"`
}

// snapshotFile is a snapshot as read.
type snapshotFile struct {
	Header snapshotHeader
	snapshotBody
	messages []byte
	// check reports whether the file's checksum matched: whatever is made
	// from the file is let go unless it returns nil.
	check func() error
}

// durableImage is r's snapshot body and binary messages; the caller
// holds r's lock.
func (r *Realm) durableImage() ([]byte, []byte, error) {
	body, err := r.tablesBody()
	if err != nil {
		return nil, nil, err
	}
	msgs, err := r.encodeMessages()
	if err != nil {
		return nil, nil, err
	}
	body.Edits = map[int64][]message.Edit{}
	r.messages.store.All().Up(0, func(m *message.Message) bool {
		if l := m.Changes().Edits; l != nil {
			e := l.NewestFirst()
			slices.Reverse(e)
			body.Edits[m.ID] = e
		}
		return true
	})
	out, err := encodeBody(body)
	return out, msgs, err
}

// tablesBody is r's snapshot body but for the messages' part (their
// binary form and edit histories): every other table; the caller holds
// r's lock.
func (r *Realm) tablesBody() (snapshotBody, error) {
	f := fixture.Document{Format: fixture.Format}
	for _, d := range domains {
		if d.name == "messages" {
			continue // they follow in the binary form
		}
		if t, ok := d.of(&r.tables).(dumper); ok {
			if err := t.dump(r, &f); err != nil {
				return snapshotBody{}, err
			}
		}
	}
	doc, err := encodeBody(f)
	if err != nil {
		return snapshotBody{}, err
	}
	exact, err := r.exactTables()
	if err != nil {
		return snapshotBody{}, err
	}
	return snapshotBody{Fixture: bytes.TrimSpace(doc), Counters: r.counters(), Tables: exact}, nil
}

// encodeBody is v in JSON, HTML unescaped, ending with a newline.
func encodeBody(v any) ([]byte, error) {
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return out.Bytes(), err
}

// counterField reports whether a table's field is an ID counter.
func counterField(f reflect.StructField) bool {
	switch f.Type.Kind() {
	case reflect.Int, reflect.Int64, reflect.Int32:
	default:
		return false
	}
	return strings.HasPrefix(f.Name, "next") || strings.HasPrefix(f.Name, "last") && strings.HasSuffix(f.Name, "ID")
}

// counterFields calls fn with every ID counter of r's tables, by name.
func (r *Realm) counterFields(fn func(name string, v reflect.Value)) {
	for _, d := range domains {
		v := reflect.ValueOf(d.of(&r.tables)).Elem()
		if v.Kind() != reflect.Struct {
			continue
		}
		for i := range v.NumField() {
			if f := v.Type().Field(i); counterField(f) {
				fv := v.Field(i)
				fn(d.name+"."+f.Name, reflect.NewAt(fv.Type(), unsafe.Pointer(fv.UnsafeAddr())).Elem())
			}
		}
	}
}

// counters are r's ID counters by name.
func (r *Realm) counters() map[string]int64 {
	out := map[string]int64{}
	r.counterFields(func(name string, v reflect.Value) { out[name] = v.Int() })
	return out
}

// setCounters puts the counters and edit histories of a snapshot back
// after its fixture's load: a counter never goes back.
func (r *Realm) setCounters(c map[string]int64) error {
	return r.update(func() error {
		r.counterFields(func(name string, v reflect.Value) {
			if n, ok := c[name]; ok && n > v.Int() {
				v.SetInt(n)
			}
		})
		return nil
	})
}

// setEdits gives the loaded messages their edit histories back.
func (r *Realm) setEdits(edits map[int64][]message.Edit) error {
	return r.update(func() error {
		for id, list := range edits {
			m, ok := r.messages.store.Message(id)
			if !ok {
				return fmt.Errorf("edit history of message %d, which the snapshot lacks", id)
			}
			var l *message.EditLog
			for _, e := range list {
				l = l.Push(e)
			}
			c := m.Changes()
			c.Edits = l
			m.SetChanges(c)
		}
		return nil
	})
}

// writeSnapshot writes the snapshot file name atomically.
func writeSnapshot(dir, name string, h snapshotHeader, body, msgs []byte) error {
	h.Length, h.Messages = int64(len(body)), int64(len(msgs))
	h.CRC = crc32.Update(crc32.Checksum(body, castagnoli), castagnoli, msgs)
	line, err := json.Marshal(h)
	if err != nil {
		return err
	}
	return writeFileAtomic(dir, filepath.Join(dir, name), append(line, '\n'), body, msgs)
}

// readSnapshot reads and checks a snapshot file.
func readSnapshot(path string) (*snapshotFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	line, err := br.ReadBytes('\n')
	if err != nil {
		return nil, &DataError{File: path, Offset: 0, Msg: "no snapshot header"}
	}
	var s snapshotFile
	if err := json.Unmarshal(line, &s.Header); err != nil || s.Header.Format == 0 {
		return nil, &DataError{File: path, Offset: 0, Msg: "not a minizulip snapshot"}
	}
	if s.Header.Format > dataFormat {
		return nil, &DataError{File: path, Offset: 0, Msg: fmt.Sprintf("written by a newer minizulip (data format %d; this one reads %d)", s.Header.Format, dataFormat)}
	}
	// One allocation of the body's size: a growing read of a large
	// snapshot would clear and copy several times its size.
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	want := s.Header.Length + s.Header.Messages
	if s.Header.Length < 0 || s.Header.Messages < 0 || want != fi.Size()-int64(len(line)) {
		return nil, &DataError{File: path, Offset: int64(len(line)), Msg: fmt.Sprintf("snapshot body damaged (%d bytes; the header says %d)", fi.Size()-int64(len(line)), want)}
	}
	body := make([]byte, want)
	if _, err := io.ReadFull(br, body); err != nil {
		return nil, &DataError{File: path, Offset: int64(len(line)), Msg: "snapshot body: " + err.Error()}
	}
	// The checksum is computed on another core while the body is read
	// (check waits for it): the reading is bounded for any bytes, and
	// nothing read is used before check passes.
	sum := make(chan uint32, 1)
	go func(all []byte) { sum <- crc32.Checksum(all, castagnoli) }(body)
	var checked error
	done := false
	s.check = func() error {
		if !done {
			done = true
			if <-sum != s.Header.CRC {
				checked = &DataError{File: path, Offset: int64(len(line)), Msg: fmt.Sprintf("snapshot body damaged (%d bytes, checksum mismatch)", len(body))}
			}
		}
		return checked
	}
	body, s.messages = body[:s.Header.Length], body[s.Header.Length:]
	if err := json.Unmarshal(body, &s.snapshotBody); err != nil {
		if cerr := s.check(); cerr != nil {
			return nil, cerr
		}
		return nil, &DataError{File: path, Offset: int64(len(line)), Msg: "snapshot body: " + err.Error()}
	}
	return &s, nil
}

// writeFileAtomic replaces path with parts, one after the other: written
// to a temporary file, synced, renamed over path, and the directory
// synced.
func writeFileAtomic(dir, path string, parts ...[]byte) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	for _, p := range parts {
		if _, err = f.Write(p); err != nil {
			break
		}
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(dir)
}

// codecSkip are the fields of exactly written tables that are not state
// to write: the table loaded from the fixture keeps its own.
var codecSkip = map[string]bool{
	"calls.providers": true, // configuration (WithCallProvider), given at every start
	"files.store":     true, // the bytes, which the fixture carries
	"files.thumbs":    true, // made thumbnails, a cache: made again when asked for
	"files.resumable": true, // tus uploads under way, whose clients start again
}

// notExact are the tables the fixture alone carries: they hold nothing
// it leaves out but what the snapshot adds beside (messages' edit
// histories; linkifiers are compiled from their patterns again).
var notExact = map[string]bool{"messages": true, "linkifiers": true}

// exactTables writes every table but messages with the state codec.
func (r *Realm) exactTables() (json.RawMessage, error) {
	e := &stateEncoder{ids: map[uintptr]int{}}
	out := map[string]any{}
	for _, d := range domains {
		if notExact[d.name] {
			continue
		}
		v := reflect.ValueOf(d.of(&r.tables)).Elem()
		if v.Kind() != reflect.Struct || v.Type() == reflect.TypeFor[Settings]() {
			x, err := e.encode(v, d.name)
			if err != nil {
				return nil, err
			}
			out[d.name] = x
			continue
		}
		fields := map[string]any{}
		for i := range v.NumField() {
			name := v.Type().Field(i).Name
			if codecSkip[d.name+"."+name] {
				continue
			}
			x, err := e.encode(v.Field(i), d.name+"."+name)
			if err != nil {
				return nil, err
			}
			fields[name] = x
		}
		out[d.name] = fields
	}
	return json.Marshal(orderedTables(out))
}

// orderedTables lists the tables in the domains' order, as the decoder
// must meet each pointer's value before its references.
func orderedTables(m map[string]any) []any {
	var list []any
	for _, d := range domains {
		if x, ok := m[d.name]; ok {
			list = append(list, []any{d.name, x})
		}
	}
	return list
}

// setExactTables puts the exactly written tables over the ones the
// fixture's load made, then numbers the messages' recipients as the
// tables do.
func (r *Realm) setExactTables(raw json.RawMessage) error { return r.putExactTables(raw, true) }

// putExactTables is setExactTables; without whole, for a tables record
// (durable_tables.go), the messages kept are left as they are and the
// realm's initial state is not taken again.
func (r *Realm) putExactTables(raw json.RawMessage, whole bool) error {
	if len(raw) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var list [][2]any
	if err := dec.Decode(&list); err != nil {
		return err
	}
	byName := map[string]domain{}
	for _, d := range domains {
		byName[d.name] = d
	}
	sd := &stateDecoder{ptrs: map[int]reflect.Value{}}
	return r.update(func() error {
		for _, item := range list {
			name, _ := item[0].(string)
			d, ok := byName[name]
			if !ok || notExact[name] {
				return fmt.Errorf("snapshot tables: unknown table %q", name)
			}
			v := reflect.ValueOf(d.of(&r.tables)).Elem()
			fresh := reflect.New(v.Type()).Elem()
			if v.Kind() != reflect.Struct || v.Type() == reflect.TypeFor[Settings]() {
				if err := sd.decode(item[1], fresh, name); err != nil {
					return err
				}
				v.Set(fresh)
				continue
			}
			fields, ok := item[1].(map[string]any)
			if !ok {
				return fmt.Errorf("snapshot tables: %s is not an object", name)
			}
			for i := range v.NumField() {
				fname := v.Type().Field(i).Name
				if codecSkip[name+"."+fname] {
					settable(fresh.Field(i)).Set(settable(v.Field(i)))
					continue
				}
				x, ok := fields[fname]
				if !ok {
					return fmt.Errorf("snapshot tables: %s.%s missing", name, fname)
				}
				if err := sd.decode(x, fresh.Field(i), name+"."+fname); err != nil {
					return err
				}
			}
			v.Set(fresh)
		}
		if whole {
			r.renumberMessageRecipients()
		}
		r.rearmAfterCopy()
		if whole {
			r.initial = r.takeSnapshot()
			r.initial.id, r.snapshots = 0, 0
		}
		return nil
	})
}

// renumberMessageRecipients gives each message the recipient ID its
// channel or conversation has; the caller holds the write lock, and the
// messages, just loaded, are the realm's alone.
func (r *Realm) renumberMessageRecipients() {
	r.messages.store.All().Up(0, func(m *message.Message) bool {
		if m.Type == message.Channel {
			if ch := r.channels.byID[m.ChannelID]; ch != nil {
				m.RecipientID = ch.RecipientID
			}
		} else if c := r.recipients.conversations[conversationKey(m.DMUserIDs)]; c != nil {
			m.RecipientID = r.dmRecipientID(c, m.SenderID)
		}
		return true
	})
}
