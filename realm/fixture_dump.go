package realm

import (
	"bytes"
	"encoding/json"

	"github.com/minizulip/minizulip/realm/fixture"
)

// Dump writes the realm as a fixture document (see fixture.Document for what it
// holds), indented, every list in ID order, so that Load then Dump gives
// the same bytes.
func (r *Realm) Dump() ([]byte, error) {
	var f fixture.Document
	err := r.view(func() (err error) {
		f, err = r.fixture()
		return err
	})
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// fixture builds the document, failing only when an uploaded file cannot
// be read; the caller holds the lock.
func (r *Realm) fixture() (fixture.Document, error) {
	f := fixture.Document{Format: fixture.Format}
	err := r.dumpTables(&f)
	return f, err
}
