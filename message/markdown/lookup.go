package markdown

import "github.com/minizulip/minizulip/linkifier"

// noLookup is the empty realm.
type noLookup struct{}

func (noLookup) UserByName(string) (User, bool)       { return User{}, false }
func (noLookup) UserByID(int) (User, bool)            { return User{}, false }
func (noLookup) GroupByName(string) (Group, bool)     { return Group{}, false }
func (noLookup) ChannelByName(string) (Channel, bool) { return Channel{}, false }
func (noLookup) RealmEmoji(string) (string, bool)     { return "", false }
func (noLookup) Linkifiers() []*linkifier.Linkifier   { return nil }
