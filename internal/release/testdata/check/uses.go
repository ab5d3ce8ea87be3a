// Package check uses the YAML files' keys, so that the map ranks them
// and shows the lines that define them.
package check

func use() int { return alpha + beta + gamma + delta + epsilon + zeta }
