//! `toolport resources` and `toolport read`: the server's resources and resource templates, and
//! one resource's contents.

use base64::Engine as _;
use toolport::model::ResourceContents;
use toolport::{McpSession, Timeouts};

use crate::args::{ReadArgs, ResourcesArgs};
use crate::outcome::Outcome;
use crate::server::{build, note_not_offered, toolset_builder};
use crate::terminal::{self, outln};

pub(crate) async fn list(args: ResourcesArgs, timeouts: Timeouts) -> anyhow::Result<Outcome> {
    let toolset = build(toolset_builder(&args.server, timeouts)?).await?;
    let printed = print_resources(toolset.session(), &args).await;
    if printed.is_ok() {
        note_not_offered(toolset.session(), "resources", |offered| {
            offered.resources.is_some()
        });
    }
    toolset.close().await;
    printed.map(|()| Outcome::Success)
}

pub(crate) async fn read(args: ReadArgs, timeouts: Timeouts) -> anyhow::Result<Outcome> {
    let toolset = build(toolset_builder(&args.server, timeouts)?).await?;
    let read = toolset.session().read_resource(&args.uri).await;
    toolset.close().await;
    let result = read?;
    if args.json {
        terminal::out_json(&serde_json::to_string_pretty(&result)?);
        return Ok(Outcome::Success);
    }
    for contents in &result.contents {
        match contents {
            ResourceContents::TextResourceContents { text, .. } => {
                terminal::out(text);
                if !text.ends_with('\n') {
                    outln!();
                }
            }
            ResourceContents::BlobResourceContents {
                blob, mime_type, ..
            } => outln!("{}", describe_blob(blob, mime_type.as_deref())),
            other => terminal::out_json(&serde_json::to_string(other)?),
        }
    }
    Ok(Outcome::Success)
}

async fn print_resources(session: &McpSession, args: &ResourcesArgs) -> anyhow::Result<()> {
    if args.templates {
        let templates = session.list_resource_templates().await?;
        if args.json {
            terminal::out_json(&serde_json::to_string_pretty(&templates)?);
        } else {
            print_rows(templates.iter().map(|template| {
                let mime = template.mime_type.as_deref().unwrap_or_default();
                [template.uri_template.as_str(), template.name.as_str(), mime]
            }));
        }
    } else {
        let resources = session.list_resources().await?;
        if args.json {
            terminal::out_json(&serde_json::to_string_pretty(&resources)?);
        } else {
            print_rows(resources.iter().map(|resource| {
                let mime = resource.mime_type.as_deref().unwrap_or_default();
                [resource.uri.as_str(), resource.name.as_str(), mime]
            }));
        }
    }
    Ok(())
}

/// One line for binary contents: their decoded size and MIME type.
fn describe_blob(blob: &str, mime_type: Option<&str>) -> String {
    let size = match base64::engine::general_purpose::STANDARD.decode(blob) {
        Ok(bytes) => format!("{} bytes", bytes.len()),
        Err(_) => "not valid base64".to_owned(),
    };
    let mime = mime_type
        .map(|mime| format!(", {mime}"))
        .unwrap_or_default();
    format!("(binary contents: {size}{mime}; --json shows the base64)")
}

/// Prints `URI  name  MIME` rows, the first two columns aligned.
fn print_rows<'a>(rows: impl Iterator<Item = [&'a str; 3]>) {
    let rows: Vec<[&str; 3]> = rows.collect();
    let width = |column: usize| rows.iter().map(|row| row[column].len()).max().unwrap_or(0);
    let (first, second) = (width(0), width(1));
    for [uri, name, mime] in rows {
        let line = format!("{uri:first$}  {name:second$}  {mime}");
        outln!("{}", line.trim_end());
    }
}
