// Package link ties the references of a tree's files to the definitions
// they can mean, as keys that package rank links files by.
//
// # Layout
//
// This package holds the link stage itself: the Linker, which links a
// tree's files and relinks what a change can change; the Resolver, which
// hands each file to the rules of its language; the grammar of keys
// (key.go); and what the rules of several languages share (Rules, Lang,
// Place, InheritedKeys, the helpers of paths). The rules of each group of
// languages are a package below it, as go/analysis has a package per
// pass: golang, python, js (JavaScript and TypeScript), c (C and C++), jvm
// (Java, Kotlin, Scala) and csharp, rust; modules holds what Python's and
// JavaScript's share, pkgscope what the JVM's and C#'s share. Package
// langs lists them; a Config says which rules the link stage resolves by.
//
// # Adding a language
//
// Write a package below this one that exports its Rules (the languages it
// resolves, the files of other languages it reads, and New, which makes
// its Lang for a tree), test it on small trees with package linktest, and
// name it in langs.Default once it is at least as precise as name
// matching on its tests and an oracle (until then, an experiment adds it
// with langs.With). Nothing else changes.
package link
