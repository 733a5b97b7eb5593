package realm

import (
	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/user"
)

// This file lists the realm's domains. Each domain keeps its state in one
// table: an unexported type in the domain's own file, with the domain's
// operations beside it and these methods:
//
//	clone() T  // a copy sharing nothing changed in place (required)
//	dump(r *Realm, f *fixture.Document) error  // writes the table into a fixture
//	load(r *Realm, f *fixture.Document) error  // reads it from one, checking every item
//	register(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult)
//	                                           // fills register's sections
//
// The last three are optional. One row per table in domains drives
// snapshots, restores and forks (copyFrom), Dump and Load (fixture,
// loadFixture) and Register: adding a domain is its file and one row.

// domain is one row of the registration list: a table and where it lives.
type domain struct {
	name string
	// of returns the table in t, as a value of its pointer type.
	of func(t *tables) any
	// copy makes dst's table a copy of src's.
	copy func(dst, src *tables)
}

// cloner is what every table has: a clone method on its pointer type.
type cloner[T any] interface {
	*T
	clone() T
}

// The optional methods of a table.
type (
	dumper interface {
		dump(r *Realm, f *fixture.Document) error
	}
	loader interface {
		load(r *Realm, f *fixture.Document) error
	}
	registrar interface {
		register(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult)
	}
)

// table registers the table field returns, under name.
func table[T any, P cloner[T]](name string, field func(*tables) *T) domain {
	return domain{
		name: name,
		of:   func(t *tables) any { return P(field(t)) },
		copy: func(dst, src *tables) { *field(dst) = P(field(src)).clone() },
	}
}

// domains are the realm's tables, in the order a fixture loads them: a
// table may refer to those above it.
var domains = []domain{
	table("recipients", func(t *tables) *recipientTable { return &t.recipients }),
	table("users", func(t *tables) *userTable { return &t.users }),
	table("groups", func(t *tables) *groupTable { return &t.groups }),
	table("settings", func(t *tables) *Settings { return &t.settings }),
	table("channelFolders", func(t *tables) *folderTable { return &t.channelFolders }),
	table("channels", func(t *tables) *channelTable { return &t.channels }),
	table("linkifiers", func(t *tables) *linkifierTable { return &t.linkifiers }),
	table("playgrounds", func(t *tables) *playgroundTable { return &t.playgrounds }),
	table("realmEmoji", func(t *tables) *emojiTable { return &t.realmEmoji }),
	table("messages", func(t *tables) *messageTable { return &t.messages }),
	// the users' own things
	table("drafts", func(t *tables) *draftTable { return &t.drafts }),
	// the users' settings, data and views
	table("mutedUsers", func(t *tables) *mutedUserTable { return &t.mutedUsers }),
	table("alertWords", func(t *tables) *alertWordTable { return &t.alertWords }),
	table("storage", func(t *tables) *storageTable { return &t.storage }),
	table("userTopics", func(t *tables) *userTopicTable { return &t.userTopics }),
	table("profileFields", func(t *tables) *profileFieldTable { return &t.profileFields }),
	table("navigationViews", func(t *tables) *navigationViewTable { return &t.navigationViews }),
	table("snippets", func(t *tables) *snippetTable { return &t.snippets }),
	table("settingsDefaults", func(t *tables) *settingsDefaultsTable { return &t.settingsDefaults }),
	table("onboarding", func(t *tables) *onboardingTable { return &t.onboarding }),
	// the activity: scheduled messages, presence, status, mail, invitations, push, exports
	table("scheduled", func(t *tables) *scheduledTable { return &t.scheduled }),
	table("statuses", func(t *tables) *statusTable { return &t.statuses }),
	table("presence", func(t *tables) *presenceTable { return &t.presence }),
	table("mail", func(t *tables) *mailTable { return &t.mail }),
	table("calls", func(t *tables) *callTable { return &t.calls }),
	table("invites", func(t *tables) *inviteTable { return &t.invites }),
	table("domains", func(t *tables) *realmDomainTable { return &t.domains }),
	table("push", func(t *tables) *pushTable { return &t.push }),
	table("exports", func(t *tables) *exportTable { return &t.exports }),
	table("files", func(t *tables) *uploadTable { return &t.files }), // last: its load writes the files' bytes
	// (end of the activity)
}

// copyFrom makes t a copy of src, table by table.
func (t *tables) copyFrom(src *tables) {
	for _, d := range domains {
		d.copy(t, src)
	}
}

// dumpTables writes every table that fixtures hold into f.
func (r *Realm) dumpTables(f *fixture.Document) error {
	for _, d := range domains {
		if t, ok := d.of(&r.tables).(dumper); ok {
			if err := t.dump(r, f); err != nil {
				return err
			}
		}
	}
	return nil
}

// loadTables reads every table that fixtures hold from f, in the
// domains' order.
func (r *Realm) loadTables(f *fixture.Document) error {
	for _, d := range domains {
		if t, ok := d.of(&r.tables).(loader); ok {
			if err := t.load(r, f); err != nil {
				return err
			}
		}
	}
	return nil
}

// registerTables fills the register sections req fetches.
func (r *Realm) registerTables(me *user.User, req *RegisterRequest, out *RegisterResult) {
	for _, d := range domains {
		if t, ok := d.of(&r.tables).(registrar); ok {
			t.register(r, me, req, out)
		}
	}
}

// tables are the realm's state: everything a snapshot, a fork or a
// fixture holds. The rest of Realm is machinery.
type tables struct {
	settings Settings

	users userTable

	channels channelTable

	groups groupTable

	recipients recipientTable
	messages   messageTable

	linkifiers linkifierTable

	realmEmoji emojiTable

	playgrounds playgroundTable

	channelFolders folderTable

	// The users' own things.
	drafts draftTable

	// The users' settings, data and views.
	mutedUsers       mutedUserTable
	alertWords       alertWordTable
	storage          storageTable
	userTopics       userTopicTable
	profileFields    profileFieldTable
	navigationViews  navigationViewTable
	snippets         snippetTable
	settingsDefaults settingsDefaultsTable
	onboarding       onboardingTable // the onboarding steps seen (onboarding_step_table.go)

	// The activity.
	scheduled scheduledTable   // scheduled messages and reminders (scheduled_table.go)
	statuses  statusTable      // the users' statuses (user_status.go)
	presence  presenceTable    // the users' presence (presence.go)
	mail      mailTable        // what the realm would have emailed, pending email changes (email_change.go)
	calls     callTable        // video-call providers and users' tokens (calls.go)
	invites   inviteTable      // email invitations and reusable invitation links (invites.go)
	domains   realmDomainTable // the realm's email domains (realm_domains.go)
	push      pushTable        // mobile push devices, the notifications recorded (push_devices.go)
	exports   exportTable      // the data exports requested (realm_export.go)
	files     uploadTable      // uploaded files, attachments, resumable uploads (upload.go)
	// (end of the activity)
}
