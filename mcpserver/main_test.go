package mcpserver_test

import (
	"os"
	"testing"

	"github.com/repomap-dev/repomap/internal/cachetest"
)

func TestMain(m *testing.M) { os.Exit(cachetest.Main(m)) }
