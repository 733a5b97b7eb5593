package main

import (
	"log/slog"
	"strings"

	"github.com/minizulip/minizulip/httpapi"
	"github.com/minizulip/minizulip/realm"
	"github.com/minizulip/minizulip/upload"
)

// realmMaker makes the realms of POST /minizulip/realms as the command
// line makes its own, the spec choosing the seed, messages, fixture and
// feature level: each on its own offset clock, with uploads in memory
// (never in -upload-dir, which holds the main realm's files), the same
// -api-key-seed, -can-create-users, -calls and upload limits, and a server
// with the same -dev-endpoints, -strict and -log, and the control API on.
// Such a realm listens on 127.0.0.1 and answers loopback names and those
// of -allow-hosts.
func realmMaker(c config, logger *slog.Logger) httpapi.RealmMaker {
	return func(url string, spec httpapi.RealmSpec) (*httpapi.Server, error) {
		if spec.Messages < 0 {
			spec.Messages = c.messages
		}
		if spec.FeatureLevel == 0 {
			spec.FeatureLevel, spec.Version = c.featureLevel, c.zulipVersion
		}
		var opts []realm.Option
		if c.apiKeySeed != "" {
			opts = append(opts, realm.WithAPIKeySeed(c.apiKeySeed))
		}
		opts = append(opts, realm.WithAccountManagers(c.accountManagers...),
			realm.WithUploadMemoryLimit(int64(c.uploadMemoryMiB)*upload.MiB), realm.WithMaxUnfinishedUploads(c.unfinishedUploads))
		for _, cf := range c.calls {
			opts = append(opts, realm.WithCallProvider(realm.NewFakeCallProvider(cf.provider, cf.baseURL)))
		}
		r, err := httpapi.SpecRealm(url, spec, opts...)
		if err != nil {
			return nil, err
		}
		for _, cf := range c.calls {
			if err := r.GrantCallTokensToAll(cf.provider); err != nil {
				return nil, err
			}
		}
		hosts := append([]string{}, httpapi.LoopbackHosts...)
		for _, h := range strings.Split(c.allowHosts, ",") {
			if h = strings.TrimSpace(h); h != "" {
				hosts = append(hosts, h)
			}
		}
		apiOpts := []httpapi.Option{httpapi.WithDevEndpoints(c.devEndpoints), httpapi.WithTestControl(true),
			httpapi.WithStrict(c.strict), httpapi.WithAllowedHosts(hosts...)}
		if logger != nil {
			apiOpts = append(apiOpts, httpapi.WithLogger(logger.With("realm_url", url)))
		}
		return httpapi.New(r, apiOpts...), nil
	}
}
