package realm

import (
	"strconv"
	"testing"
	"time"
)

// BenchmarkScheduleThenDeliver schedules benchContent to Verona for one
// second later and advances the clock to deliver it: the cost of a send
// plus the schedule's checks, its events and the timer. Compare with
// BenchmarkSendChannelMessage.
func BenchmarkScheduleThenDeliver(b *testing.B) {
	r, clock := newTestRealm(b)
	a := r.As(idIago)
	to := strconv.Itoa(r.channels.byName[channelKey("Verona")].ID)
	topicName := "bench"
	b.ReportAllocs()
	for b.Loop() {
		_, err := a.CreateScheduledMessage(bg, ScheduledMessageInput{Type: "channel", To: to, Topic: &topicName,
			Content: benchContent, DeliverAt: clock.Now().Add(time.Second).Unix()})
		if err != nil {
			b.Fatal(err)
		}
		clock.Advance(time.Second)
	}
	if len(r.scheduled.byID) != 0 {
		b.Fatal("not delivered")
	}
}

// BenchmarkScheduleWithPending schedules and deletes a direct message
// while a thousand others wait: setting the timer scans the pending ones.
// Compare with BenchmarkScheduleWithPending/pending=0.
func BenchmarkScheduleWithPending(b *testing.B) {
	for _, n := range []int{0, 1000} {
		b.Run("pending="+strconv.Itoa(n), func(b *testing.B) {
			r, clock := newTestRealm(b)
			a := r.As(idIago)
			at := clock.Now().Add(time.Hour).Unix()
			for i := range n {
				if _, err := a.CreateScheduledMessage(bg, ScheduledMessageInput{Type: "direct", To: "[12]",
					Content: "waiting", DeliverAt: at + int64(i)}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				id, err := a.CreateScheduledMessage(bg, ScheduledMessageInput{Type: "direct", To: "[12]",
					Content: "hello", DeliverAt: at - 1})
				if err != nil {
					b.Fatal(err)
				}
				if err := a.DeleteScheduledMessage(bg, id); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
