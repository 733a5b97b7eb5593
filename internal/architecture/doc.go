// Package architecture holds no code: its test checks the rules of the
// package graph that the design card sets (domain packages never import
// the engine or the adapter, the engine speaks no HTTP, the adapter does
// not link the testing package).
package architecture
