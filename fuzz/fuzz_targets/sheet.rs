#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| verify_claim_fuzz::sheet(data));
