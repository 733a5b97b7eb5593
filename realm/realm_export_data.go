package realm

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"strings"
	"time"

	"github.com/minizulip/minizulip/realm/fixture"
)

// exportFixture is the realm's fixture document cut down to what an
// export of that type holds: a public export keeps the public channels
// and their messages, with no user's message flags; a standard export
// adds the private channels and direct messages that a consenting user
// (allow_private_data_export) received, with the flags of consenting
// users only; uploaded files go with the exported messages that claim
// them (a standard export adds the consenting users' other files), and
// reminders only for consenting users. API keys are never exported. The
// result is itself a loadable fixture: nothing in it names a channel or
// message it leaves out (the moderation request channel turns reporting
// off). The caller holds the lock.
func (r *Realm) exportFixture(exportType int) (fixture.Document, error) {
	f, err := r.fixture()
	if err != nil {
		return f, err
	}
	consented := map[int]bool{}
	if exportType == ExportFullWithConsent {
		for _, u := range r.users.byID {
			if u.IsActive && !u.IsBot() && u.Settings.AllowPrivateDataExport {
				consented[u.ID] = true
			}
		}
	}
	for i := range f.Users {
		f.Users[i].APIKey = ""
	}
	public := map[int]bool{}
	keptChannel := map[int]bool{}
	for _, c := range f.Channels {
		public[c.ID] = !c.InviteOnly
		keptChannel[c.ID] = !c.InviteOnly
	}
	for _, s := range f.Subscriptions {
		if consented[s.UserID] && !s.Inactive {
			keptChannel[s.ChannelID] = true
		}
	}
	channels := f.Channels[:0]
	for _, c := range f.Channels {
		if keptChannel[c.ID] {
			channels = append(channels, c)
		}
	}
	f.Channels = channels
	subs := f.Subscriptions[:0]
	for _, s := range f.Subscriptions {
		if keptChannel[s.ChannelID] {
			subs = append(subs, s)
		}
	}
	f.Subscriptions = subs
	if !keptChannel[f.Settings.ModerationRequestChannelID] {
		f.Settings.ModerationRequestChannelID = -1
	}
	if p := f.Settings.SignupAnnouncementsStreamID; p != nil && !keptChannel[*p] {
		f.Settings.SignupAnnouncementsStreamID = nil
	}
	if p := f.Settings.NewStreamAnnouncementsStreamID; p != nil && !keptChannel[*p] {
		f.Settings.NewStreamAnnouncementsStreamID = nil
	}
	msgs := f.Messages[:0]
	for _, m := range f.Messages {
		if m.ChannelID != 0 && !keptChannel[m.ChannelID] {
			continue // its channel is not exported
		}
		flags := map[int][]string{}
		for uid, fl := range m.Flags {
			if consented[uid] {
				flags[uid] = fl
			}
		}
		if !(m.ChannelID != 0 && public[m.ChannelID]) && len(flags) == 0 {
			continue // private, and no consenting user received it
		}
		m.Flags = flags
		msgs = append(msgs, m)
	}
	f.Messages = msgs
	exportExtras(&f, consented)
	return f, nil
}

// exportExtras cuts an export's uploads and reminders down to the
// exported messages and the consenting users.
func exportExtras(f *fixture.Document, consented map[int]bool) {
	kept := map[int64]bool{}
	for _, m := range f.Messages {
		kept[m.ID] = true
	}
	uploads := f.Uploads[:0]
	for _, u := range f.Uploads {
		claims := []int64{}
		for _, id := range u.MessageIDs {
			if kept[id] {
				claims = append(claims, id)
			}
		}
		if len(claims) > 0 || consented[u.OwnerID] {
			u.MessageIDs = claims
			uploads = append(uploads, u)
		}
	}
	f.Uploads = uploads
	reminders := f.Reminders[:0]
	for _, rm := range f.Reminders {
		if consented[rm.UserID] && kept[rm.MessageID] {
			reminders = append(reminders, rm)
		}
	}
	f.Reminders = reminders
}

// exportTarball packs the document as <name without .tar.gz>/realm.json
// in a gzipped tar, as Zulip's export tarballs hold their directory.
func exportTarball(f fixture.Document, name string) ([]byte, error) {
	var doc bytes.Buffer
	enc := json.NewEncoder(&doc)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	gz := gzip.NewWriter(&out)
	tw := tar.NewWriter(gz)
	hdr := &tar.Header{Name: strings.TrimSuffix(name, ".tar.gz") + "/realm.json", Mode: 0o644,
		Size: int64(doc.Len()), ModTime: time.Unix(0, 0), Typeflag: tar.TypeReg}
	if err := tw.WriteHeader(hdr); err != nil {
		return nil, err
	}
	if _, err := tw.Write(doc.Bytes()); err != nil {
		return nil, err
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
