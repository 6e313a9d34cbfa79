//! `LoopbackAuthorization`: the redirect reaches the listener on 127.0.0.1 (as the browser
//! would send it), and the handler returns it whole; another path is not taken for it. A URL
//! that is not `https` (or `http` to loopback) never reaches the browser.

use std::time::Duration;

use bytes::Bytes;
use http::{Request, StatusCode};
use http_body_util::Full;
use toolport_auth::{AuthorizationHandler, EndpointRefused, LoopbackAuthorization};
use toolport_http_client::HttpClient;
use url::Url;

/// What the browser does once the user has approved: a `GET` of `url`.
async fn visit(url: &Url) -> StatusCode {
    let client = HttpClient::plain(Duration::from_secs(5));
    let request = Request::get(url.as_str())
        .body(Full::new(Bytes::new()))
        .unwrap();
    client.send(request).await.unwrap().status()
}

#[tokio::test]
async fn the_redirect_to_the_listener_is_returned_whole() {
    let handler = LoopbackAuthorization::bind()
        .unwrap()
        .without_browser()
        .timeout(Duration::from_secs(10));
    let redirect_uri = handler.redirect_uri().clone();
    assert_eq!(redirect_uri.host_str(), Some("127.0.0.1"));
    assert_eq!(redirect_uri.path(), "/callback");

    let authorization_url = Url::parse("https://auth.example.com/authorize?state=s-1").unwrap();
    let waiting = tokio::spawn(async move { handler.authorize(&authorization_url).await });

    let mut elsewhere = redirect_uri.clone();
    elsewhere.set_path("/favicon.ico");
    assert_eq!(visit(&elsewhere).await, StatusCode::NOT_FOUND);
    let mut answer = redirect_uri.clone();
    answer.set_query(Some(
        "code=c-1&state=s-1&iss=https%3A%2F%2Fauth.example.com",
    ));
    assert_eq!(visit(&answer).await, StatusCode::OK);

    let returned = waiting.await.unwrap().unwrap();
    assert_eq!(returned, answer);
}

#[tokio::test]
async fn no_redirect_within_the_timeout_is_an_error_naming_the_redirect_uri() {
    let handler = LoopbackAuthorization::bind()
        .unwrap()
        .without_browser()
        .timeout(Duration::from_millis(200));
    let url = Url::parse("https://auth.example.com/authorize").unwrap();
    let error = handler.authorize(&url).await.unwrap_err().to_string();
    assert!(error.contains(handler.redirect_uri().as_str()), "{error}");
}

#[tokio::test]
async fn a_url_that_is_not_https_never_reaches_the_browser() {
    // The browser is on: were the URL not refused first, the opener would be run with it, and
    // the handler would then wait for a redirect and fail otherwise.
    let handler = LoopbackAuthorization::bind()
        .unwrap()
        .timeout(Duration::from_millis(1));
    for (url, scheme) in [
        ("file:///etc/passwd?response_type=code&state=s", "file"),
        ("javascript:alert(document.domain)", "javascript"),
        ("data:text/html;base64,PHNjcmlwdD4=", "data"),
    ] {
        let error = handler
            .authorize(&Url::parse(url).unwrap())
            .await
            .unwrap_err();
        let refused = error
            .downcast_ref::<EndpointRefused>()
            .unwrap_or_else(|| panic!("not a refusal: {error}"));
        assert_eq!(
            refused,
            &EndpointRefused::Scheme {
                scheme: scheme.into()
            }
        );
        assert!(
            error.to_string().contains(&format!("`{scheme}:`")),
            "{error}"
        );
    }
    let error = handler
        .authorize(&Url::parse("http://auth.example.com/authorize").unwrap())
        .await
        .unwrap_err();
    assert!(
        matches!(
            error.downcast_ref::<EndpointRefused>(),
            Some(EndpointRefused::PlainHttp { .. })
        ),
        "{error}"
    );
}
