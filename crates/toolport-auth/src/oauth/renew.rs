//! What a refusal leads to: nothing when another request renewed already, the nonce kept when
//! a resource server asks a DPoP proof for one, a refresh or the whole flow on 401, a step-up
//! on 403 `insufficient_scope`.

use http::header::WWW_AUTHENTICATE;
use http::{HeaderMap, StatusCode};
use toolport_http_client::Refusal;

use super::flow::asked_so_far;
use super::scopes;
use super::{AuthorizationError, Inner, Session, present};
use crate::{BearerChallenge, Challenge, TokenSet};

/// How many step-ups an authorizer tries in all: the conformance suite's limit on
/// authorization requests for a scope that is never granted.
const MAX_STEP_UPS: u32 = 3;

impl Inner {
    /// Handles `refusal` and says whether the request is worth sending again.
    ///
    /// A 401 `use_dpop_nonce` with a `DPoP-Nonce` is `true` at once, the nonce kept for the
    /// next proofs (RFC 9449 §9). Renewals run one at a time. When the refused request carried
    /// another token than the current one (another renewal replaced it meanwhile, or another
    /// authorizer sharing the store did), the answer is `true` at once.
    pub(super) async fn renew(&self, refusal: Refusal<'_>) -> Result<bool, AuthorizationError> {
        if self.dpop.nonce_challenge(&refusal) {
            return Ok(true);
        }
        let mut session = self.session.lock().await;
        let current = self.tokens.reload().await?;
        if let Some(tokens) = &current
            && present::authorization(tokens).ok().as_ref() != refusal.sent
        {
            tracing::debug!("the refused request carried an older token; sending it again");
            return Ok(true);
        }
        let challenge = bearer_challenge(refusal.headers);
        match refusal.status {
            StatusCode::UNAUTHORIZED => {
                self.unauthorized(&mut session, current, refusal, challenge.as_ref())
                    .await
            }
            StatusCode::FORBIDDEN => match challenge {
                Some(challenge) if challenge.is_insufficient_scope() => {
                    self.step_up(&mut session, current, &challenge).await
                }
                _ => Ok(false),
            },
            _ => Ok(false),
        }
    }

    /// 401: a refresh, unless the refused token came from one; the whole flow when there is
    /// nothing to refresh or the refresh fails.
    async fn unauthorized(
        &self,
        session: &mut Session,
        current: Option<TokenSet>,
        refusal: Refusal<'_>,
        challenge: Option<&BearerChallenge>,
    ) -> Result<bool, AuthorizationError> {
        if let Some(tokens) = current.filter(|_| refusal.sent != session.refreshed.as_ref()) {
            match self.refresh(session, &tokens).await {
                Ok(Some(_)) => return Ok(true),
                Ok(None) => {}
                Err(error) => tracing::debug!(%error, "refresh failed; authorizing again"),
            }
        }
        self.authorize_fully(session, challenge).await?;
        Ok(true)
    }

    /// 403 `insufficient_scope`: authorizes again for the union of the scopes asked so far
    /// and the challenge's, unless the challenge asks for nothing new or the step-ups are
    /// used up.
    async fn step_up(
        &self,
        session: &mut Session,
        current: Option<TokenSet>,
        challenge: &BearerChallenge,
    ) -> Result<bool, AuthorizationError> {
        let asked = asked_so_far(session, current.as_ref().map(TokenSet::scopes));
        if !scopes::asks_more(challenge, &asked) {
            tracing::debug!(
                scope = challenge.scope().unwrap_or_default(),
                "insufficient_scope for scopes already asked for; the refusal stands"
            );
            return Ok(false);
        }
        if session.step_ups >= MAX_STEP_UPS {
            tracing::debug!(
                step_ups = session.step_ups,
                "insufficient_scope again; no more step-ups"
            );
            return Ok(false);
        }
        session.step_ups += 1;
        self.authorize_fully(session, Some(challenge)).await?;
        Ok(true)
    }
}

/// The first `Bearer` challenge among every `WWW-Authenticate` header of a response, else the
/// parameters of the first `DPoP` one.
pub(crate) fn bearer_challenge(headers: &HeaderMap) -> Option<BearerChallenge> {
    let challenges: Vec<Challenge> = headers
        .get_all(WWW_AUTHENTICATE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(Challenge::parse_all)
        .collect();
    BearerChallenge::find(&challenges).or_else(|| {
        challenges
            .iter()
            .find_map(BearerChallenge::from_dpop_challenge)
    })
}
