// Package items makes the ranked list of items a map is fitted from: the
// definitions of the ranking in order, each with the rows of its file
// that show it, and the files by name alone after them. The list is made
// as the fit reads it (List.Prefix), and its head is put in order by the
// ranking's rules of spreading: a name shown on a few types, not on each
// of a dozen that implement it; a document by its first headings; another
// build's copy of a Go definition after the rest.
package items
