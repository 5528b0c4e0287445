//! The addon's link settings for the platform built for (napi-build's).

fn main() {
    napi_build::setup();
}
