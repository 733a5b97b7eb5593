package httpapi

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"strings"
	"testing"
)

// httpapi declares no feature level: where it reads a parameter by the
// realm's level, it asks the realm's table (Realm.Has(realm.Change…));
// a comparison names a realm constant or checks a literal bound.
func TestNoFeatureLevelDeclaredHere(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range pkgs["httpapi"].Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GenDecl:
				if n.Tok != token.CONST {
					return true
				}
				for _, s := range n.Specs {
					for _, id := range s.(*ast.ValueSpec).Names {
						if strings.HasSuffix(id.Name, "Level") || strings.HasSuffix(id.Name, "Lvl") {
							t.Errorf("%s: feature level %s is declared in httpapi, not in realm/feature_levels.go", fset.Position(id.Pos()), id.Name)
						}
					}
				}
			case *ast.BinaryExpr:
				switch n.Op {
				case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
				default:
					return true
				}
				other := n.Y
				if !readsLevel(n.X) {
					if !readsLevel(n.Y) {
						return true
					}
					other = n.X
				}
				if _, lit := other.(*ast.BasicLit); lit {
					return true // a bound checked on input, not a feature gate
				}
				if sel, ok := other.(*ast.SelectorExpr); !ok || !isRealmPackage(sel.X) {
					t.Errorf("%s: the feature level is compared with something other than a realm constant", fset.Position(other.Pos()))
				}
			}
			return true
		})
	}
}

// readsLevel reports whether e is the feature level: FeatureLevel() or
// a local level.
func readsLevel(e ast.Expr) bool {
	if c, ok := e.(*ast.CallExpr); ok {
		e = c.Fun
	}
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name == "level" || e.Name == "lvl"
	case *ast.SelectorExpr:
		return e.Sel.Name == "FeatureLevel"
	}
	return false
}

// isRealmPackage reports whether e names package realm.
func isRealmPackage(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "realm"
}
