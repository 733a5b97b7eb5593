package realm

import "github.com/minizulip/minizulip/realm/clock"

// LoadFixture replaces the realm's whole state by a fixture document's,
// as if the realm had been created by Load with its options: what Reset
// goes back to from then on is the document. The document is checked
// whole first: one that does not load is refused with the *FixtureError
// Load gives, naming the offending item, and changes nothing. Every event
// queue is dropped, as by Restore; the clock, the options and the
// snapshots taken before stay (restoring one brings its state back).
func (r *Realm) LoadFixture(doc []byte) error {
	// The document is loaded into a realm of its own, on a clock frozen
	// at this moment so that its timers never run, then moved in.
	frozen := clock.NewManual(r.clock.Now())
	loaded, err := Load(doc, func(o *Options) { *o = r.opts; o.Clock = frozen })
	if err != nil {
		return err
	}
	return r.update(func() error {
		oldStore, unshared := r.files.store, r.files.unsharedBlobs()
		r.tables.copyFrom(&loaded.tables)
		// The bytes of files no snapshot holds go, unless the document
		// put a file at the same path of the same store.
		for _, pathID := range unshared {
			if oldStore != r.files.store || r.files.byPath[pathID] == nil {
				_ = oldStore.Delete(pathID)
			}
		}
		r.events.DropAll()
		r.rearmAfterCopy()
		r.armUnclaimedSweeps()
		snapshots := r.snapshots
		r.initial = r.takeSnapshot()
		r.initial.id, r.snapshots = 0, snapshots
		return nil
	})
}
