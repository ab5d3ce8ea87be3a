# Homebrew formula for repomap v1.2.3, made by "go run ./internal/release"
# with the release. It belongs in a tap: Formula/repomap.rb.
class Repomap < Formula
  desc "Map of a repository for coding agents: the definitions that matter, in a token budget"
  homepage "https://github.com/repomap-dev/repomap"
  version "1.2.3"
  license "Apache-2.0"

  on_macos do
    on_arm do
      url "https://github.com/repomap-dev/repomap/releases/download/v1.2.3/repomap_1.2.3_darwin_arm64.tar.gz"
      sha256 "52e693de465e655103df204a957db15462cc90470b000b601b92ceb5204ef83e"
    end
    on_intel do
      url "https://github.com/repomap-dev/repomap/releases/download/v1.2.3/repomap_1.2.3_darwin_amd64.tar.gz"
      sha256 "ddfc85258bd518fca413f13db759c9f3bb19e57b1aab794371573ded126b4657"
    end
  end

  on_linux do
    on_arm do
      url "https://github.com/repomap-dev/repomap/releases/download/v1.2.3/repomap_1.2.3_linux_arm64.tar.gz"
      sha256 "a70eb9eb067cf1dd291767d548e298c98e0436e8bf13c0297e70a3bdecaabea2"
    end
    on_intel do
      url "https://github.com/repomap-dev/repomap/releases/download/v1.2.3/repomap_1.2.3_linux_amd64.tar.gz"
      sha256 "dc50e0e2d07e163a6ca0a0779d83c8f6f48c8f375195557331ab3232a991b44b"
    end
  end

  def install
    bin.install "repomap"
  end

  test do
    assert_match "repomap v#{version} ", shell_output("#{bin}/repomap version")
  end
end
