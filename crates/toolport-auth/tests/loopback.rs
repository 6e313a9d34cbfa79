//! `LoopbackAuthorization`: the redirect reaches the listener on 127.0.0.1 (as the browser
//! would send it), and the handler returns it whole; another path is not taken for it.

use std::time::Duration;

use bytes::Bytes;
use http::{Request, StatusCode};
use http_body_util::Full;
use toolport_auth::{AuthorizationHandler, LoopbackAuthorization};
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
