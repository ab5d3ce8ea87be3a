# Build the shop service.
{ lib, stdenv, fetchurl, pkgs ? import <nixpkgs> { } }:

let
  version = "1.4.0";
  pricing = pkgs.callPackage ./pricing.nix { inherit version; };

  mkService = name: args:
    stdenv.mkDerivation ({
      pname = "shop-${name}";
      inherit version;
      buildInputs = [ pricing ];
    } // args);
in
{
  inventory = mkService "inventory" {
    src = fetchurl {
      url = "https://example.com/inventory-${version}.tar.gz";
      sha256 = lib.fakeSha256;
    };
  };

  checkout = mkService "checkout" { meta.description = "Checkout"; };
}
