package realm

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/clock"
)

// seedTopics are the topics seeded channel messages go to, as a dev
// server's generated conversations spread over a few topics per channel.
var seedTopics = []string{"plotting", "castle", "weather", "lunch", "release planning"}

// seedLines are the sentences seeded messages say, in turn.
var seedLines = []string{
	"Good morning, everyone!",
	"Has anyone seen the **new design** yet?",
	"I think we should ship it on Friday.",
	"Let's discuss this at the next meeting.",
	"Here is the link: https://zulip.com",
	"That sounds like a plan :+1:",
	"Can someone review my changes?",
	"The build is green again.",
	"I'll be out of office tomorrow.",
	"```\nhello world\n```",
	"Thanks, @**King Hamlet**!",
	"What time is lunch?",
}

// seedReactions are the emoji seeded reactions use, in turn.
var seedReactions = []struct{ name, code string }{
	{"+1", "1f44d"}, {"heart", "2764"}, {"tada", "1f389"}, {"smile", "1f642"},
}

// seedMessageSpacing is the time between two seeded messages.
const seedMessageSpacing = time.Second

// seedClock is the realm's clock while the dev realm and its messages are
// seeded: it stands still, and seedMessages moves it one
// seedMessageSpacing forward before each message. Seeded messages so have
// timestamps that rise with their IDs, as a Zulip dev server's generated
// history does; clients that order messages by timestamp (zulip-terminal
// sorts a narrow by it) would otherwise show a history sent within one
// second in an arbitrary order.
type seedClock struct {
	clock.Clock // the realm's own clock, for timers
	now         time.Time
}

func (c *seedClock) Now() time.Time { return c.now }

// beginSeedHistory moves a realm seeding n messages back in time: it, its users
// and channels are created n*seedMessageSpacing before the realm's clock
// says now, and its last seeded message is sent at now. The returned
// function gives the realm its clock back.
func (r *Realm) beginSeedHistory(o Options) (end func()) {
	if o.Seed != SeedDev || o.SeedMessages <= 0 {
		return func() {}
	}
	own := r.clock
	r.clock = &seedClock{Clock: own, now: own.Now().Add(-time.Duration(o.SeedMessages) * seedMessageSpacing)}
	return func() { r.clock = own }
}

// seedMessages sends n messages as the dev realm's humans, the way a
// Zulip development server's database holds generated conversations:
// seven in ten go to channels (spread over their subscribers and a few
// topics), the rest are one-to-one and group direct messages; one in
// five gets a reaction, and everything is read by everyone, as the dev
// server marks its generated messages read for humans. The messages are
// fixed by n, so every run seeds the same realm; they are one
// seedMessageSpacing apart, the last sent at the realm's now
// (beginSeedHistory).
func (r *Realm) seedMessages(n int) {
	ctx := context.Background()
	humans := r.seedHumans()
	channels := r.seedChannels()
	if len(humans) < 3 || len(channels) == 0 {
		return
	}
	sc, _ := r.clock.(*seedClock)
	for i := 0; i < n; i++ {
		if sc != nil {
			sc.now = sc.now.Add(seedMessageSpacing)
		}
		content := seedLines[i%len(seedLines)]
		var sender int
		var req SendRequest
		switch i % 10 {
		case 7, 8: // one-to-one
			sender = humans[i%len(humans)]
			other := humans[(i/len(humans)+i+1)%len(humans)]
			if other == sender {
				other = humans[(i+1)%len(humans)]
			}
			req = SendRequest{Type: "direct", To: message.To{UserIDs: []int{other}, IsList: true}}
		case 9: // group
			sender = humans[i%len(humans)]
			req = SendRequest{Type: "direct", To: message.To{UserIDs: []int{humans[(i+1)%len(humans)], humans[(i+2)%len(humans)]}, IsList: true}}
		default:
			ch := channels[i%len(channels)]
			subs := r.subscriberIDs(ch.ID)
			subs = slices.DeleteFunc(slices.Sorted(slices.Values(subs)), func(id int) bool { return !slices.Contains(humans, id) })
			if len(subs) == 0 {
				continue
			}
			sender = subs[(i/len(channels))%len(subs)]
			t := seedTopics[(i/len(channels))%len(seedTopics)]
			req = SendRequest{Type: "stream", To: message.To{ChannelName: ch.Name}, Topic: &t}
		}
		req.Content = content
		res, err := r.As(sender).SendMessage(ctx, req)
		if err != nil {
			panic(fmt.Sprintf("realm: seeding message %d: %v", i, err))
		}
		if i%5 == 4 {
			e := seedReactions[(i/5)%len(seedReactions)]
			if err := r.As(sender).AddReaction(ctx, ReactionRequest{MessageID: res.ID, EmojiName: &e.name, EmojiCode: &e.code}); err != nil {
				panic(fmt.Sprintf("realm: seeding a reaction on message %d: %v", res.ID, err))
			}
		}
	}
	for _, id := range humans {
		_, _ = r.As(id).MarkAllAsRead(ctx)
	}
}

// seedHumans are the IDs of the realm's active human users, ascending.
func (r *Realm) seedHumans() []int {
	var ids []int
	for _, u := range r.users.sorted() {
		if u.IsActive && !u.IsBot() {
			ids = append(ids, u.ID)
		}
	}
	return ids
}

// seedChannels are the channels seeded messages go to: every channel
// that is not archived and where members may post, by ID.
func (r *Realm) seedChannels() []*storedChannel {
	var out []*storedChannel
	for _, c := range r.channels.byID {
		if !c.IsArchived && c.CanSendMessageGroup == r.groups.byName[group.Everyone].ID {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b *storedChannel) int { return a.ID - b.ID })
	return out
}
