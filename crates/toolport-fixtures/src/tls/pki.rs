//! [`TestPki`]: a certificate authority made in the test, a server certificate and a client
//! certificate it issued, all in PEM.

use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, ExtendedKeyUsagePurpose, IsCa,
    KeyPair, KeyUsagePurpose,
};

/// A certificate and its private key, PEM.
#[derive(Debug, Clone)]
pub struct TestIdentity {
    /// The certificate.
    pub cert_pem: String,
    /// Its private key (PKCS#8).
    pub key_pem: String,
}

/// A test certificate authority, a server certificate for `localhost`, `127.0.0.1` and
/// [`TestPki::INTERNAL_HOST`], and a client certificate, all issued by it.
#[derive(Debug, Clone)]
pub struct TestPki {
    /// The CA's certificate: the root a client must trust.
    pub ca_pem: String,
    /// The server's certificate and key.
    pub server: TestIdentity,
    /// A certificate for the same names that expired in 2001, and its key: put it in `server`
    /// for a gateway that serves an expired certificate.
    pub expired_server: TestIdentity,
    /// A client's certificate and key, for mutual TLS.
    pub client: TestIdentity,
}

impl TestPki {
    /// A host name that no resolver knows (`.test` is reserved): only a proxy that maps it to
    /// this machine, such as [`ConnectProxy`](crate::ConnectProxy), reaches it.
    pub const INTERNAL_HOST: &'static str = "mcp.internal.test";

    /// A new CA named `name` and the certificates it issued.
    pub fn new(name: &str) -> Self {
        let mut params = CertificateParams::new(Vec::<String>::new()).expect("CA parameters");
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.distinguished_name.push(DnType::CommonName, name);
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        let ca = CertifiedIssuer::self_signed(params, KeyPair::generate().expect("CA key"))
            .expect("CA certificate");
        let issue = |names: Vec<String>, usage: ExtendedKeyUsagePurpose, expired: bool| {
            let key = KeyPair::generate().expect("key");
            let mut params = CertificateParams::new(names).expect("certificate parameters");
            params.extended_key_usages = vec![usage];
            if expired {
                params.not_before = rcgen::date_time_ymd(2000, 1, 1);
                params.not_after = rcgen::date_time_ymd(2001, 1, 1);
            }
            let certificate = params.signed_by(&key, &ca).expect("certificate");
            TestIdentity {
                cert_pem: certificate.pem(),
                key_pem: key.serialize_pem(),
            }
        };
        let server_names = ["localhost", "127.0.0.1", Self::INTERNAL_HOST].map(str::to_owned);
        let server = |expired| {
            let usage = ExtendedKeyUsagePurpose::ServerAuth;
            issue(server_names.to_vec(), usage, expired)
        };
        Self {
            ca_pem: ca.pem(),
            server: server(false),
            expired_server: server(true),
            client: issue(
                vec!["agent.internal.test".to_owned()],
                ExtendedKeyUsagePurpose::ClientAuth,
                false,
            ),
        }
    }
}
