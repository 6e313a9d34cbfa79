//! The billing server over the in-process duplex connector.

mod common;

use serde_json::json;
use toolport_fixtures::BillingServer;
use toolport_testkit::{DuplexConnector, bounded};

use common::{call, connect};

fn billing() -> (DuplexConnector, BillingServer) {
    let billing = BillingServer::new();
    let server = billing.clone();
    (DuplexConnector::new(move || server.clone()), billing)
}

#[tokio::test]
async fn lists_and_gets_the_seed_invoices() {
    let (connector, _) = billing();
    let client = connect(&connector).await;

    let september = call(
        &client,
        "list_invoices",
        json!({"customer_id": "C-1001", "month": "2026-09"}),
    )
    .await;
    let listed = september.structured_content.unwrap();
    assert_eq!(listed["count"], 2);
    assert_eq!(listed["invoices"][0]["id"], "INV-2026-0917");
    assert_eq!(listed["invoices"][1]["order_id"], "O-5531");
    let every_month = call(&client, "list_invoices", json!({"customer_id": "C-1001"})).await;
    assert_eq!(every_month.structured_content.unwrap()["count"], 3);
    let nobody = call(&client, "list_invoices", json!({"customer_id": "C-9"})).await;
    assert_eq!(nobody.structured_content.unwrap()["count"], 0);

    let invoice = call(
        &client,
        "get_invoice",
        json!({"invoice_id": "INV-2026-0918"}),
    )
    .await;
    assert_eq!(
        invoice.structured_content.unwrap()["charge_idempotency_key"],
        "ck-91bd4c"
    );
    let missing = call(&client, "get_invoice", json!({"invoice_id": "INV-1"})).await;
    assert_eq!(missing.is_error, Some(true));
    assert!(
        format!("{:?}", missing.content).contains("Call list_invoices"),
        "{missing:?}"
    );

    let tools = bounded("tools/list", client.list_all_tools())
        .await
        .unwrap();
    let hints = |name: &str| {
        let tool = tools.iter().find(|tool| tool.name == name).unwrap();
        let annotations = tool.annotations.clone().unwrap();
        (annotations.read_only_hint, annotations.destructive_hint)
    };
    assert_eq!(hints("list_invoices"), (Some(true), None));
    assert_eq!(hints("get_invoice"), (Some(true), None));
    assert_eq!(hints("issue_refund"), (Some(false), Some(true)));
}

#[tokio::test]
async fn a_refund_is_made_once_per_idempotency_key() {
    let (connector, billing) = billing();
    let client = connect(&connector).await;
    let refund = |key: Option<&str>| {
        let mut arguments = json!({"invoice_id": "INV-2026-0918", "reason": "charged twice"});
        if let Some(key) = key {
            arguments["idempotency_key"] = json!(key);
        }
        call(&client, "issue_refund", arguments)
    };

    let first = refund(Some("k-1")).await.structured_content.unwrap();
    assert_eq!(first["refund_id"], "RF-1");
    assert_eq!(first["amount_cents"], 4_900);
    let again = refund(Some("k-1")).await.structured_content.unwrap();
    assert_eq!(again, first, "the same key returns the first refund");
    assert_eq!(billing.refunds(), 1);

    let unkeyed = refund(None).await.structured_content.unwrap();
    assert_eq!(unkeyed["refund_id"], "RF-2");
    assert_eq!(billing.refunds(), 2, "no key, no protection");

    let unknown = call(
        &client,
        "issue_refund",
        json!({"invoice_id": "INV-1", "reason": "x"}),
    )
    .await;
    assert_eq!(unknown.is_error, Some(true));
    assert_eq!(billing.refunds(), 2);
}
