package realm

import (
	"context"
	"testing"
	"time"
)

// Before feature level 330 default channels were channel objects, in
// register and in events alike; from it they are IDs.
func TestDefaultChannelsShapeByLevel(t *testing.T) {
	for _, c := range []struct {
		level   int
		objects bool
	}{{329, true}, {330, false}} {
		r, _ := newTestRealm(t, WithFeatureLevel(c.level, "test"))
		l, err := r.As(idHamlet).Listen(bg, RegisterRequest{Queue: QueueOptions{EventTypes: []string{"default_streams"}}})
		if err != nil {
			t.Fatal(err)
		}
		list := l.State.DefaultStreamsState.RealmDefaultStreams
		if objs, ok := list.([]Stream); ok != c.objects || (ok && (len(objs) != 5 || objs[0].Name != "Verona")) {
			t.Fatalf("level %d: realm_default_streams %#v", c.level, list)
		}
		denmark := r.channels.byName["denmark"].ID
		if err := r.As(idIago).AddDefaultChannel(bg, denmark); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(bg, time.Second)
		evs, err := l.Next(ctx)
		cancel()
		if err != nil || len(evs) != 1 {
			t.Fatalf("level %d: events %v %v", c.level, evs, err)
		}
		got := evs[0].Payload.(DefaultStreamsEvent).DefaultStreams
		if c.objects {
			objs, ok := got.([]Stream)
			if !ok || len(objs) != 6 || objs[1].StreamID != denmark {
				t.Fatalf("level %d: event %#v", c.level, got)
			}
		} else if ids, ok := got.([]int); !ok || len(ids) != 6 || ids[1] != denmark {
			t.Fatalf("level %d: event %#v", c.level, got)
		}
	}
}
