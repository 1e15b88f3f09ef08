// The API's documentation, drawn from /openapi.json with nothing loaded from outside the table.
"use strict";

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

function refName(schema) {
  return schema && schema.$ref ? schema.$ref.split("/").pop() : null;
}

function typeText(schema) {
  if (!schema) return "";
  const ref = refName(schema);
  if (ref) return ref;
  if (schema.anyOf) return schema.anyOf.map(typeText).join(" | ");
  if (schema.type === "array") return `${typeText(schema.items)}[]`;
  if (schema.type === "object" && schema.additionalProperties) {
    return `{string: ${typeText(schema.additionalProperties)}}`;
  }
  return schema.type || "any";
}

function schemaLink(schema) {
  const ref = refName(schema);
  if (!ref) return el("code", null, typeText(schema));
  const a = el("a", null, ref);
  a.href = `#schema-${ref}`;
  return a;
}

function endpoint(path, method, op) {
  const box = el("div", "endpoint");
  box.id = `${method}-${path}`.replace(/[^A-Za-z0-9_-]+/g, "-");
  box.dataset.method = method.toUpperCase();
  box.dataset.path = path;
  const head = el("h3");
  head.append(el("span", `method ${method}`, method.toUpperCase()), " ", path);
  for (const tag of op.tags || []) head.append(" ", el("span", "tag", tag));
  box.append(head);
  if (op.summary) box.append(el("div", "summary", op.summary));
  if (op.description) box.append(el("div", "muted", op.description));
  const params = op.parameters || [];
  if (params.length) {
    const table = el("table");
    table.append(el("tr"));
    table.lastChild.append(el("th", null, "parameter"), el("th", null, "in"),
                           el("th", null, "type"), el("th", null, "about"));
    for (const p of params) {
      const row = el("tr");
      const type = el("td");
      type.append(schemaLink(p.schema));
      row.append(el("td", null, p.name + (p.required ? " *" : "")), el("td", null, p.in), type,
                 el("td", null, p.description || (p.schema && p.schema.description) || ""));
      table.append(row);
    }
    box.append(table);
  }
  const body = op.requestBody && op.requestBody.content
    && Object.values(op.requestBody.content)[0];
  if (body) {
    const line = el("div", "body", "body: ");
    line.append(schemaLink(body.schema), op.requestBody.required ? " (required)" : " (optional)");
    box.append(line);
  }
  const answers = el("div", "responses", "answers: ");
  answers.append(Object.entries(op.responses || {}).map(([code, r]) => `${code} ${r.description}`)
                 .join(" · "));
  box.append(answers);
  if (op.security) box.append(el("div", "muted", "needs a dealer's or supervisor's bearer token"));
  return box;
}

function schemaBox(name, schema) {
  const box = el("div", "endpoint schema");
  box.id = `schema-${name}`;
  box.append(el("h3", null, name));
  if (schema.description) box.append(el("div", "muted", schema.description));
  const props = schema.properties || {};
  const required = new Set(schema.required || []);
  if (Object.keys(props).length) {
    const table = el("table");
    for (const [key, value] of Object.entries(props)) {
      const row = el("tr");
      const type = el("td");
      type.append(schemaLink(value));
      row.append(el("td", null, key + (required.has(key) ? " *" : "")), type,
                 el("td", null, value.description || ""));
      table.append(row);
    }
    box.append(table);
  }
  return box;
}

async function main() {
  const status = document.getElementById("status");
  const response = await fetch("/openapi.json");
  if (!response.ok) { status.textContent = `/openapi.json answered ${response.status}`; return; }
  const api = await response.json();
  document.title = `${api.info.title} API`;
  document.getElementById("title").textContent = `${api.info.title}: API ${api.info.version}`;
  document.getElementById("summary").textContent = api.info.summary || "";
  const list = document.getElementById("endpoints");
  const toc = document.getElementById("toc");
  let count = 0;
  for (const [path, methods] of Object.entries(api.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const box = endpoint(path, method, op);
      list.append(box);
      const a = el("a", null, `${method.toUpperCase()} ${path}`);
      a.href = `#${box.id}`;
      toc.append(a, " ");
      count += 1;
    }
  }
  const schemas = document.getElementById("schemas");
  const defs = (api.components && api.components.schemas) || {};
  if (Object.keys(defs).length) schemas.append(el("h2", null, "Schemas"));
  for (const [name, schema] of Object.entries(defs)) schemas.append(schemaBox(name, schema));
  status.textContent = `${count} endpoints`;
  document.body.dataset.endpoints = String(count);
}

main().catch(err => { document.getElementById("status").textContent = `error: ${err}`; });
