package httpapi

import (
	"cmp"
	"context"
	"errors"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/minizulip/minizulip/realm"
	"github.com/minizulip/minizulip/realm/clock"
)

// RealmSpec is what POST /minizulip/realms asks for, as the standalone
// server's flags say it: -seed, -messages, -fixture, -feature-level.
type RealmSpec struct {
	// Seed is "dev" (the Zulip dev realm, the default) or "empty" (one
	// owner, EmptyRealmOwner).
	Seed string
	// Messages is how many messages a dev realm starts with; -1 for the
	// maker's default.
	Messages int
	// Fixture is a fixture document to load instead of a seeded realm.
	Fixture []byte
	// FeatureLevel and Version are the advertised zulip_feature_level and
	// zulip_version; 0 and "" for the maker's defaults.
	FeatureLevel int
	Version      string
}

// EmptyRealmOwner is the one account of an empty realm (seed "empty").
const EmptyRealmOwner = "owner@zulip.com"

// MaxSpecMessages bounds the messages a realm created over HTTP starts
// with.
const MaxSpecMessages = 10000

// DefaultMaxRealms is how many realms WithRealms serves at once by
// default, as the standalone server's -max-realms.
const DefaultMaxRealms = 256

// RealmMaker builds the server of a realm that POST /minizulip/realms
// creates, to be served at url (which is to be its realm URL). The realm
// must be a new one, with its own clock: nothing is shared with the
// server that created it.
type RealmMaker func(url string, spec RealmSpec) (*Server, error)

// WithRealms serves POST, GET and DELETE /minizulip/realms: each realm
// created is served by make's Server on a loopback port of its own, at
// most max at once. A nil make is DefaultRealmMaker. CloseRealms closes
// them all. Without this option POST /minizulip/realms is refused.
func WithRealms(max int, make RealmMaker) Option {
	if make == nil {
		make = DefaultRealmMaker
	}
	return func(s *Server) { s.tc.realms = &realmPool{max: max, maker: make, byID: map[int]*servedRealm{}} }
}

// SpecRealm creates the realm spec describes, at url, with opts before
// the spec's own: an offset clock (real time a test can move ahead)
// unless opts choose one, seeded presence, and the realm URL.
func SpecRealm(url string, spec RealmSpec, opts ...realm.Option) (*realm.Realm, error) {
	all := append([]realm.Option{realm.WithClock(clock.NewOffset()), realm.WithSeededPresence(),
		realm.WithOutgoingWebhookCaller(NewServiceCaller(nil))}, opts...)
	all = append(all, realm.WithURL(url))
	if spec.FeatureLevel != 0 {
		version := spec.Version // "": the level's release (realm.VersionForLevel)
		all = append(all, realm.WithFeatureLevel(spec.FeatureLevel, version))
	}
	if spec.Messages >= 0 {
		all = append(all, realm.WithSeededMessages(spec.Messages))
	}
	if spec.Fixture != nil {
		return realm.Load(spec.Fixture, all...)
	}
	if spec.Seed == "empty" {
		// Seeded with the realm, so that its reset keeps the owner.
		all = append(all, realm.WithSeed(realm.SeedEmpty), realm.WithOwner(EmptyRealmOwner, "Owner"))
	}
	return realm.New(all...), nil
}

// DefaultRealmMaker serves the realm of spec as RunT does (no seeded
// messages unless spec says how many), with dev endpoints and the
// control API, answering loopback host names only.
func DefaultRealmMaker(url string, spec RealmSpec) (*Server, error) {
	r, err := SpecRealm(url, spec)
	if err != nil {
		return nil, err
	}
	return New(r, WithAllowedHosts(LoopbackHosts...)), nil
}

// realmPool holds the realms a server created (WithRealms).
type realmPool struct {
	max   int
	maker RealmMaker
	mu    sync.Mutex
	// byID are the realms served; starting counts those being created,
	// which count against max too.
	byID     map[int]*servedRealm
	starting int
	lastID   int
	closed   bool
}

// servedRealm is one realm a pool serves on a port of its own.
type servedRealm struct {
	id      int
	url     string
	created time.Time
	api     *Server
	http    *http.Server
	cancel  context.CancelFunc
	done    chan struct{}
}

// RealmInfo is a realm as POST and GET /minizulip/realms describe it.
type RealmInfo struct {
	RealmID int    `json:"realm_id"`
	URL     string `json:"url"`
	// Created is when it was created, in Unix seconds (real time).
	Created int64 `json:"created"`
}

// errNoRealms refuses realm creation on a server without WithRealms.
var errNoRealms = realm.BadRequest("This server creates no realms: POST /minizulip/realms is served by the standalone server (-max-realms) and by servers built with httpapi.WithRealms")

// CreateRealm creates a realm of spec and serves it on a loopback port
// of its own. It is refused when the server has no WithRealms, when
// the limit is reached (429), or when the spec does not load.
func (s *Server) CreateRealm(spec RealmSpec) (RealmInfo, error) {
	pool := s.tc.realms
	if pool == nil {
		return RealmInfo{}, errNoRealms
	}
	pool.mu.Lock()
	switch {
	case pool.closed:
		pool.mu.Unlock()
		return RealmInfo{}, realm.BadRequest("The server is closing: it creates no more realms")
	case len(pool.byID)+pool.starting >= pool.max:
		pool.mu.Unlock()
		return RealmInfo{}, &realm.Error{Code: "TOO_MANY_REALMS", Status: http.StatusTooManyRequests,
			Msg: "Too many realms (limit: " + strconv.Itoa(pool.max) + "): delete one first (DELETE /minizulip/realms/{realm_id})"}
	}
	pool.starting++
	pool.mu.Unlock()
	sr, err := pool.start(spec)
	pool.mu.Lock()
	defer pool.mu.Unlock()
	pool.starting--
	if err != nil {
		return RealmInfo{}, err
	}
	if pool.closed {
		go sr.close()
		return RealmInfo{}, realm.BadRequest("The server is closing: it creates no more realms")
	}
	pool.lastID++
	sr.id = pool.lastID
	pool.byID[sr.id] = sr
	return sr.entry(), nil
}

// start makes and serves one realm.
func (pool *realmPool) start(spec RealmSpec) (*servedRealm, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, &realm.Error{Code: realm.CodeBadRequest, Status: http.StatusServiceUnavailable, Msg: "No port for the realm: " + err.Error()}
	}
	url := "http://" + ln.Addr().String()
	api, err := pool.maker(url, spec)
	if err != nil {
		ln.Close()
		var re *realm.Error
		if errors.As(err, &re) {
			return nil, re
		}
		// A fixture that does not load (*realm.FixtureError, naming the
		// offending item), or another refusal of the spec.
		return nil, realm.BadRequest("%v", err)
	}
	srv, cancel := NewHTTPServer(api)
	sr := &servedRealm{url: url, created: time.Now(), api: api, http: srv, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(sr.done)
		_ = srv.Serve(ln)
	}()
	return sr, nil
}

func (sr *servedRealm) entry() RealmInfo {
	return RealmInfo{RealmID: sr.id, URL: sr.url, Created: sr.created.Unix()}
}

// close stops serving the realm: its listener, requests in flight (long
// polls end), its event queues, and the realms it created in turn.
func (sr *servedRealm) close() {
	sr.cancel()
	_ = sr.http.Close()
	<-sr.done
	sr.api.CloseRealms()
	sr.api.realm.Stop()
}

// Realms lists the realms the server created and serves, by ID.
func (s *Server) Realms() []RealmInfo {
	pool := s.tc.realms
	out := []RealmInfo{}
	if pool == nil {
		return out
	}
	pool.mu.Lock()
	for _, sr := range pool.byID {
		out = append(out, sr.entry())
	}
	pool.mu.Unlock()
	slices.SortFunc(out, func(a, b RealmInfo) int { return cmp.Compare(a.RealmID, b.RealmID) })
	return out
}

// CloseRealm closes one realm the server created; it reports whether
// there was such a realm.
func (s *Server) CloseRealm(id int) bool {
	pool := s.tc.realms
	if pool == nil {
		return false
	}
	pool.mu.Lock()
	sr := pool.byID[id]
	delete(pool.byID, id)
	pool.mu.Unlock()
	if sr == nil {
		return false
	}
	sr.close()
	return true
}

// CloseRealms closes every realm the server created, and makes it refuse
// to create more: call it when the server stops (TestServer.Close does).
func (s *Server) CloseRealms() {
	pool := s.tc.realms
	if pool == nil {
		return
	}
	pool.mu.Lock()
	pool.closed = true
	all := pool.byID
	pool.byID = map[int]*servedRealm{}
	pool.mu.Unlock()
	var wg sync.WaitGroup
	for _, sr := range all {
		wg.Go(sr.close)
	}
	wg.Wait()
}

// realmParams are the parameters of POST /minizulip/realms.
var realmParams = []string{"seed", "messages", "fixture", "feature_level", "zulip_version"}

// postRealm answers POST /minizulip/realms.
func (s *Server) postRealm(_ *http.Request, p *params) (any, error) {
	spec := RealmSpec{Seed: "dev", Messages: -1}
	if seed, ok := p.str("seed"); ok {
		if seed != "dev" && seed != "empty" {
			return nil, realm.BadRequest(`seed must be "dev" or "empty", not %q`, seed)
		}
		spec.Seed = seed
	}
	n, set, err := p.optInt("messages")
	if err != nil {
		return nil, err
	}
	if set {
		if n < 0 || n > MaxSpecMessages {
			return nil, realm.BadRequest("messages must be between 0 and %d", MaxSpecMessages)
		}
		spec.Messages = n
	}
	if doc, ok := p.str("fixture"); ok {
		if strings.TrimSpace(doc) == "" {
			return nil, realm.BadRequest("fixture is empty: give a fixture document (GET /minizulip/dump writes one)")
		}
		if _, seeded := p.str("seed"); seeded || set {
			return nil, realm.BadRequest("fixture excludes seed and messages: the fixture says what the realm holds")
		}
		spec.Fixture = []byte(doc)
	}
	level, set, err := p.optInt("feature_level")
	if err != nil {
		return nil, err
	}
	if set && (level < 1 || level > realm.DefaultFeatureLevel) {
		return nil, realm.BadRequest("feature_level must be between 1 and %d", realm.DefaultFeatureLevel)
	}
	spec.FeatureLevel = level
	spec.Version, _ = p.str("zulip_version")
	if spec.Version != "" && !set {
		return nil, realm.BadRequest("zulip_version goes with feature_level")
	}
	entry, err := s.CreateRealm(spec)
	if err != nil {
		return nil, err
	}
	return entry, nil
}

// listRealms answers GET /minizulip/realms.
func (s *Server) listRealms(*http.Request, *params) (any, error) {
	return map[string]any{"realms": s.Realms()}, nil
}

// deleteRealm answers DELETE /minizulip/realms/{realm_id}: the realm's
// listener closes, its requests in flight end and its queues go.
func (s *Server) deleteRealm(req *http.Request, _ *params) (any, error) {
	raw := req.PathValue("realm_id")
	id, err := strconv.Atoi(raw)
	if err != nil || !s.CloseRealm(id) {
		return nil, realm.BadRequest("No realm with ID %q", raw)
	}
	return nil, nil
}
