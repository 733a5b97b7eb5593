package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/minizulip/minizulip/realm"
)

// addDataFlags adds -data, -fsync and -data-repair.
func addDataFlags(fs *flag.FlagSet, c *config) {
	fs.StringVar(&c.data, "data", "", "keep the realm in this directory across restarts and crashes: the first start seeds it as the other flags say, later starts load it")
	fs.StringVar(&c.fsync, "fsync", "always", `with -data, when a change reaches the disk: "always" (before its answer) or "everysec" (once a second; a power cut can lose the last second)`)
	fs.BoolVar(&c.dataRepair, "data-repair", false, "with -data, cut a journal damaged in the middle back to its last good record instead of refusing to start")
}

// dataOptions are realm.Open's options for the command line c; a first
// start sets *fresh.
func dataOptions(c config, fixture []byte, log io.Writer, fresh *bool) []realm.Option {
	policy, _ := realm.ParseFsyncPolicy(c.fsync) // checked by parseArgs
	first := func(r *realm.Realm) error {
		*fresh = true
		return firstStart(c)(r)
	}
	opts := []realm.Option{realm.WithFsync(policy), realm.WithFirstStart(first),
		realm.WithDataLog(func(format string, args ...any) { fmt.Fprintf(log, format+"\n", args...) })}
	if c.dataRepair {
		opts = append(opts, realm.WithDataRepair())
	}
	if fixture != nil {
		opts = append(opts, realm.WithInitialFixture(fixture))
	}
	return opts
}

// firstStart is the set-up of a new realm beyond its options: every
// user holds the -calls providers' tokens (an empty realm's owner is
// seeded by realm.WithOwner, so that a reset keeps them). With -data it
// runs at the first start only.
func firstStart(c config) func(r *realm.Realm) error {
	return func(r *realm.Realm) error {
		for _, cf := range c.calls {
			if err := r.GrantCallTokensToAll(cf.provider); err != nil {
				return err
			}
		}
		return nil
	}
}

// closeRealm writes a realm with a data directory as a fresh snapshot
// and releases the directory.
func closeRealm(r *realm.Realm, log io.Writer) {
	if err := r.Close(); err != nil {
		fmt.Fprintln(log, "minizulip: closing the data directory:", err)
	}
}
