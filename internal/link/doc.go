// Package link ties the references of a tree's files to the
// definitions they can mean, as keys that package rank links files by.
package link
