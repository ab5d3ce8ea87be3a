//! Bindings to the label printer's C library.

use std::os::raw::{c_char, c_int};

#[repr(C)]
pub union RawCode {
    pub number: u64,
    pub bytes: [u8; 8],
}

extern "C" {
    fn lp_open(device: *const c_char) -> c_int;
    fn lp_print(handle: c_int, code: RawCode) -> c_int;
}

pub trait Printer {
    type Error;

    fn print(&mut self, code: RawCode) -> Result<(), Self::Error>;
}

pub struct LabelPrinter {
    handle: c_int,
}

impl Printer for LabelPrinter {
    type Error = i32;

    fn print(&mut self, code: RawCode) -> Result<(), i32> {
        const OK: c_int = 0;
        match unsafe { lp_print(self.handle, code) } {
            OK => Ok(()),
            err => Err(err),
        }
    }
}
