# Log bucket and web servers for the storefront.

terraform {
  required_version = ">= 1.5"
}

provider "aws" {
  region = var.region
  alias  = "west"
}

variable "region" {
  type    = string
  default = "eu-west-1"
}

variable "instance_count" {
  type = number
}

locals {
  name_prefix = "storefront-${var.region}"
  common_tags = {
    Team = "web"
  }
}

data "aws_ami" "ubuntu" {
  most_recent = true
  owners      = ["099720109477"]
}

module "vpc" {
  source = "./modules/vpc"
  cidr   = "10.0.0.0/16"
}

resource "aws_s3_bucket" "logs" {
  bucket   = "${local.name_prefix}-logs"
  tags     = merge(local.common_tags, { Name = upper(local.name_prefix) })
  provider = aws.west
}

resource "aws_instance" "web" {
  count         = var.instance_count
  ami           = data.aws_ami.ubuntu.id
  subnet_id     = element(module.vpc.private_subnets, count.index)
  instance_type = "t3.small"

  lifecycle {
    create_before_destroy = true
  }

  depends_on = [aws_s3_bucket.logs]
}

moved {
  from = aws_instance.server
  to   = aws_instance.web
}

output "web_ips" {
  value = [for w in aws_instance.web : w.private_ip]
}
