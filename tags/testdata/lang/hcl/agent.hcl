# Agent settings for the storefront sidecar.
data_dir  = "/var/lib/agent"
log_level = upper("info")

server {
  enabled          = true
  bootstrap_expect = 3
}

service "storefront" {
  port = 8080

  check {
    interval = "10s"
  }
}
