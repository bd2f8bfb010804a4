"""Drives the official Python SDK `permit` (pinned in requirements.txt) against a running service.

Run by test/permit-python/python-sdk.test.ts, which starts the service and passes:
  PERMIT_URL        the service's base URL (used as both `pdp` and `api_url`)
  PERMIT_ENV_TOKEN  an environment key (every environment-level call)
  PERMIT_ORG_TOKEN  the admin key (projects and environments, which Permit calls with an
                    organization-level key)
  PERMIT_PROJECT, PERMIT_ENV  the keys of the environment PERMIT_ENV_TOKEN belongs to
  DRIVER_MODE       `full` (writes, reads and asserts everything) or `read` (only reads, on the
                    graph that test/permit-python/upgradeFixture.ts describes: the upgrade test)

Prints one JSON object per line:
  {"surface": [...]}                                   every public method of permit.api.* (and
                                                       permit.elements, permit.pdp_api.* / the PDP calls) found in
                                                       the installed package
  {"area": ..., "call": ..., "ok": true|false, "error": ...}   one line per SDK call made
The exit code is 0 even when calls fail: the jest test reads the lines and names each failure.
"""

import asyncio
import inspect
import json
import os
import sys
import traceback
from typing import Any, Awaitable, Callable, Dict, List, Optional

from permit import Permit, PermitApiError

URL = os.environ["PERMIT_URL"]
ENV_TOKEN = os.environ["PERMIT_ENV_TOKEN"]
ORG_TOKEN = os.environ.get("PERMIT_ORG_TOKEN", "")
MODE = os.environ.get("DRIVER_MODE", "full")


def emit(obj: Dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj, default=str) + "\n")
    sys.stdout.flush()


class Failed(Exception):
    """An SDK call answered, but not what a user relies on."""


def expect(cond: bool, message: str) -> None:
    if not cond:
        raise Failed(message)


def eq(got: Any, want: Any, what: str) -> None:
    expect(got == want, f"{what}: expected {want!r}, got {got!r}")


async def raw(method: str, path: str, model: Any, body: Any = None, token: str = "") -> Any:
    """A call no pinned SDK makes, over HTTP with Permit's documented shape; the answer is parsed
    with the SDK's own model (`permit.api.models`), the judge of the shape."""
    import urllib.error
    import urllib.request

    def go() -> Any:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(URL + path, data=data, method=method, headers={
            "Authorization": f"Bearer {token or ENV_TOKEN}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as res:
                text = res.read().decode()
        except urllib.error.HTTPError as e:
            raise Failed(f"{method} {path}: {e.code} {e.read().decode()[:300]}") from None
        return json.loads(text) if text else None

    answer = await asyncio.to_thread(go)
    if model is None:
        return answer
    # `[Model]`: a list of them.
    return [model[0].parse_obj(x) for x in answer] if isinstance(model, list) else model.parse_obj(answer)


def keys_of(items: Any) -> List[str]:
    return sorted(getattr(x, "key") for x in items)


class Run:
    def __init__(self) -> None:
        self.area = ""

    async def call(self, name: str, fn: Callable[[], Awaitable[Any]], check: Optional[Callable[[Any], None]] = None) -> Any:
        """Makes one SDK call and reports it; `check` asserts on its answer. Answers None on failure."""
        try:
            result = await fn()
            if check is not None:
                check(result)
        except Failed as e:
            emit({"area": self.area, "call": name, "ok": False, "error": f"wrong answer: {e}"})
            return None
        except Exception as e:  # noqa: BLE001 - every failure is reported, none stops the run
            emit({"area": self.area, "call": name, "ok": False, "error": f"{type(e).__name__}: {str(e)[:600]}"})
            return None
        emit({"area": self.area, "call": name, "ok": True})
        return result

    async def gone(self, name: str, fn: Callable[[], Awaitable[Any]]) -> None:
        """The call must fail with 404 (the record was deleted)."""

        async def attempt() -> None:
            try:
                await fn()
            except PermitApiError as e:
                eq(e.status_code, 404, "status after delete")
                return
            raise Failed("still there after delete")

        await self.call(name, attempt)

    async def refused(self, name: str, fn: Callable[[], Awaitable[Any]], status: int) -> None:
        """The call must fail with this status."""

        async def attempt() -> None:
            try:
                await fn()
            except PermitApiError as e:
                eq(e.status_code, status, "status")
                return
            raise Failed(f"answered, where {status} was expected")

        await self.call(name, attempt)


def surface(permit: Permit) -> List[str]:
    """Every public coroutine method of permit.api.*, permit.api's own (deprecated) methods,
    permit.elements, permit.pdp_api.* (the local PDP's own API) and the PDP calls on Permit itself,
    as the installed package has them."""
    names: List[str] = []
    api = permit.api
    for attr in sorted(dir(api)):
        if attr.startswith("_") or attr == "config":
            continue
        obj = getattr(api, attr)
        if inspect.ismethod(obj):
            names.append(f"api.{attr}")
            continue
        for m in sorted(dir(obj)):
            if not m.startswith("_") and inspect.ismethod(getattr(obj, m, None)):
                names.append(f"api.{attr}.{m}")
    for m in sorted(dir(permit.elements)):
        if not m.startswith("_") and inspect.ismethod(getattr(permit.elements, m, None)):
            names.append(f"elements.{m}")
    for attr in sorted(dir(permit.pdp_api)):
        obj = getattr(permit.pdp_api, attr)
        if attr.startswith("_") or attr == "config" or inspect.ismethod(obj):
            continue
        for m in sorted(dir(obj)):
            if not m.startswith("_") and inspect.ismethod(getattr(obj, m, None)):
                names.append(f"pdp_api.{attr}.{m}")
    for m in ("check", "bulk_check", "filter_objects", "get_user_permissions", "authorized_users"):
        names.append(m)
    return names


# --------------------------------------------------------------------------------------------
# full mode: every served method, with the values it must answer


async def full(r: Run, permit: Permit, org: Permit) -> None:
    api = permit.api

    r.area = "resources"
    doc = await r.call("api.resources.create", lambda: api.resources.create({"key": "doc", "name": "Doc", "actions": {"read": {}, "write": {}}}),
                       lambda x: eq(sorted(x.actions.keys()), ["read", "write"], "actions"))
    doc_id = str(doc.id) if doc else "missing"
    await r.call("api.resources.get", lambda: api.resources.get("doc"), lambda x: eq(str(x.id), doc_id, "id"))
    await r.call("api.resources.get_by_key", lambda: api.resources.get_by_key("doc"), lambda x: eq(x.key, "doc", "key"))
    await r.call("api.resources.get_by_id", lambda: api.resources.get_by_id(doc_id), lambda x: eq(x.key, "doc", "key"))
    await r.call("api.resources.update", lambda: api.resources.update("doc", {"description": "documents"}), lambda x: eq(x.description, "documents", "description"))
    await r.call("api.resources.create", lambda: api.resources.create({"key": "folder", "name": "Folder", "actions": {"read": {}}}))
    await r.call("api.resources.replace", lambda: api.resources.replace("folder", {"name": "Folders", "actions": {"read": {}, "list": {}}}),
                 lambda x: (eq(x.name, "Folders", "name"), eq(sorted(x.actions.keys()), ["list", "read"], "actions")))
    await r.call("api.resources.list", lambda: api.resources.list(), lambda x: expect({"doc", "folder"} <= set(keys_of(x)), f"keys {keys_of(x)}"))
    await r.call("api.create_resource", lambda: api.create_resource({"key": "tmpres", "name": "Tmp", "actions": {"a": {}}}), lambda x: eq(x.key, "tmpres", "key"))
    await r.call("api.get_resource", lambda: api.get_resource("tmpres"), lambda x: eq(x.name, "Tmp", "name"))
    await r.call("api.update_resource", lambda: api.update_resource("tmpres", {"name": "Tmp2"}), lambda x: eq(x.name, "Tmp2", "name"))
    await r.call("api.delete_resource", lambda: api.delete_resource("tmpres"))
    await r.gone("api.resources.get", lambda: api.resources.get("tmpres"))
    await r.call("api.resources.create", lambda: api.resources.create({"key": "tmpres2", "name": "Tmp", "actions": {"a": {}}}))
    await r.call("api.resources.delete", lambda: api.resources.delete("tmpres2"))
    await r.gone("api.resources.get", lambda: api.resources.get("tmpres2"))

    r.area = "resource_actions"
    ra = api.resource_actions
    share = await r.call("api.resource_actions.create", lambda: ra.create("doc", {"key": "share", "name": "Share"}), lambda x: eq(x.key, "share", "key"))
    share_id = str(share.id) if share else "missing"
    await r.call("api.resource_actions.get", lambda: ra.get("doc", "share"), lambda x: eq(str(x.id), share_id, "id"))
    await r.call("api.resource_actions.get_by_key", lambda: ra.get_by_key("doc", "share"), lambda x: eq(x.name, "Share", "name"))
    await r.call("api.resource_actions.get_by_id", lambda: ra.get_by_id(doc_id, share_id), lambda x: eq(x.key, "share", "key"))
    await r.call("api.resource_actions.update", lambda: ra.update("doc", "share", {"description": "with others"}), lambda x: eq(x.description, "with others", "description"))
    await r.call("api.resource_actions.list", lambda: ra.list("doc"), lambda x: eq(keys_of(x), ["read", "share", "write"], "keys"))
    await r.call("api.resource_actions.delete", lambda: ra.delete("doc", "share"))
    await r.gone("api.resource_actions.get", lambda: ra.get("doc", "share"))

    r.area = "roles"
    await r.call("api.roles.create", lambda: api.roles.create({"key": "reader", "name": "Reader", "permissions": ["doc:read"]}), lambda x: eq(x.permissions, ["doc:read"], "permissions"))
    writer = await r.call("api.roles.create", lambda: api.roles.create({"key": "writer", "name": "Writer", "permissions": ["doc:write"], "extends": ["reader"]}),
                          lambda x: eq(x.extends, ["reader"], "extends"))
    writer_id = str(writer.id) if writer else "missing"
    await r.call("api.roles.get", lambda: api.roles.get("writer"), lambda x: eq(str(x.id), writer_id, "id"))
    await r.call("api.roles.get_by_key", lambda: api.roles.get_by_key("writer"), lambda x: eq(x.key, "writer", "key"))
    await r.call("api.roles.get_by_id", lambda: api.roles.get_by_id(writer_id), lambda x: eq(x.key, "writer", "key"))
    await r.call("api.roles.update", lambda: api.roles.update("writer", {"description": "writes"}), lambda x: eq(x.description, "writes", "description"))
    await r.call("api.roles.assign_permissions", lambda: api.roles.assign_permissions("reader", ["folder:read"]), lambda x: eq(sorted(x.permissions), ["doc:read", "folder:read"], "permissions"))
    await r.call("api.roles.remove_permissions", lambda: api.roles.remove_permissions("reader", ["folder:read"]), lambda x: eq(x.permissions, ["doc:read"], "permissions"))
    await r.call("api.roles.list", lambda: api.roles.list(), lambda x: expect({"reader", "writer"} <= set(keys_of(x)), f"keys {keys_of(x)}"))
    await r.call("api.create_role", lambda: api.create_role({"key": "gone", "name": "Gone"}), lambda x: eq(x.key, "gone", "key"))
    await r.call("api.get_role", lambda: api.get_role("gone"), lambda x: eq(x.name, "Gone", "name"))
    await r.call("api.update_role", lambda: api.update_role("gone", {"name": "Going"}), lambda x: eq(x.name, "Going", "name"))
    await r.call("api.list_roles", lambda: api.list_roles(), lambda x: expect("gone" in keys_of(x), f"keys {keys_of(x)}"))
    await r.call("api.delete_role", lambda: api.delete_role("gone"))
    await r.call("api.roles.create", lambda: api.roles.create({"key": "gone2", "name": "Gone"}))
    await r.call("api.roles.delete", lambda: api.roles.delete("gone2"))
    await r.gone("api.roles.get", lambda: api.roles.get("gone2"))

    r.area = "resource_roles"
    rr = api.resource_roles
    await r.call("api.resource_roles.create", lambda: rr.create("folder", {"key": "viewer", "name": "Viewer", "permissions": ["read"]}), lambda x: eq(x.permissions, ["read"], "permissions"))
    await r.call("api.resource_roles.create", lambda: rr.create("doc", {"key": "viewer", "name": "Viewer", "permissions": ["read"]}))
    editor = await r.call("api.resource_roles.create", lambda: rr.create("doc", {"key": "editor", "name": "Editor", "permissions": ["write"], "extends": ["viewer"]}),
                          lambda x: eq(x.extends, ["viewer"], "extends"))
    editor_id = str(editor.id) if editor else "missing"
    await r.call("api.resource_roles.get", lambda: rr.get("doc", "editor"), lambda x: eq(str(x.id), editor_id, "id"))
    await r.call("api.resource_roles.get_by_key", lambda: rr.get_by_key("doc", "editor"), lambda x: eq(x.key, "editor", "key"))
    await r.call("api.resource_roles.get_by_id", lambda: rr.get_by_id(doc_id, editor_id), lambda x: eq(x.key, "editor", "key"))
    await r.call("api.resource_roles.update", lambda: rr.update("doc", "editor", {"description": "edits"}), lambda x: eq(x.description, "edits", "description"))
    await r.call("api.resource_roles.assign_permissions", lambda: rr.assign_permissions("folder", "viewer", ["list"]), lambda x: eq(sorted(x.permissions), ["list", "read"], "permissions"))
    await r.call("api.resource_roles.remove_permissions", lambda: rr.remove_permissions("folder", "viewer", ["list"]), lambda x: eq(x.permissions, ["read"], "permissions"))
    await r.call("api.resource_roles.list", lambda: rr.list("doc"), lambda x: eq(keys_of(x), ["editor", "viewer"], "keys"))
    await r.call("api.resource_roles.create", lambda: rr.create("doc", {"key": "tmp", "name": "Tmp"}))
    await r.call("api.resource_roles.delete", lambda: rr.delete("doc", "tmp"))
    await r.gone("api.resource_roles.get", lambda: rr.get("doc", "tmp"))

    r.area = "resource_relations"
    rel = api.resource_relations
    parent = await r.call("api.resource_relations.create", lambda: rel.create("doc", {"key": "parent", "name": "Parent", "subject_resource": "folder"}),
                          lambda x: (eq(x.key, "parent", "key"), eq(x.subject_resource, "folder", "subject_resource"), eq(x.object_resource, "doc", "object_resource")))
    parent_id = str(parent.id) if parent else "missing"
    await r.call("api.resource_relations.get", lambda: rel.get("doc", "parent"), lambda x: eq(str(x.id), parent_id, "id"))
    await r.call("api.resource_relations.get_by_key", lambda: rel.get_by_key("doc", "parent"), lambda x: eq(x.key, "parent", "key"))
    await r.call("api.resource_relations.get_by_id", lambda: rel.get_by_id(doc_id, parent_id), lambda x: eq(x.key, "parent", "key"))
    await r.call("api.resource_relations.list", lambda: rel.list("doc"), lambda x: eq(keys_of(x.data), ["parent"], "keys"))
    await r.call("api.resource_relations.create", lambda: rel.create("doc", {"key": "tmp", "name": "Tmp", "subject_resource": "folder"}))
    await r.call("api.resource_relations.delete", lambda: rel.delete("doc", "tmp"))
    await r.gone("api.resource_relations.get", lambda: rel.get("doc", "tmp"))

    r.area = "role_derivations"
    rule = {"role": "viewer", "on_resource": "folder", "linked_by_relation": "parent"}
    await r.call("api.resource_roles.create_role_derivation", lambda: rr.create_role_derivation("doc", "viewer", {**rule, "when": {"no_direct_roles_on_object": True}}),
                 lambda x: (eq((x.role, x.on_resource, x.linked_by_relation), ("viewer", "folder", "parent"), "rule")))
    await r.call("api.resource_roles.update_role_derivation_conditions", lambda: rr.update_role_derivation_conditions("doc", "viewer", {"no_direct_roles_on_object": False}),
                 lambda x: eq(x.no_direct_roles_on_object, False, "no_direct_roles_on_object"))
    derivations = lambda x: [(d.role, d.on_resource, d.linked_by_relation) for d in (x.granted_to.users_with_role if x.granted_to else [])]  # noqa: E731
    await r.call("api.resource_roles.get", lambda: rr.get("doc", "viewer"), lambda x: eq(derivations(x), [("viewer", "folder", "parent")], "doc viewer derivations"))
    await r.call("api.resource_roles.delete_role_derivation", lambda: rr.delete_role_derivation("doc", "viewer", rule))
    await r.call("api.resource_roles.get", lambda: rr.get("doc", "viewer"), lambda x: eq(derivations(x), [], "doc viewer derivations after delete"))
    await r.call("api.resource_roles.create_role_derivation", lambda: rr.create_role_derivation("doc", "viewer", rule))

    r.area = "tenants"
    tn = api.tenants
    acme = await r.call("api.tenants.create", lambda: tn.create({"key": "acme", "name": "Acme", "attributes": {"plan": "gold"}}),
                        lambda x: (eq(x.key, "acme", "key"), eq(x.attributes, {"plan": "gold"}, "attributes")))
    acme_id = str(acme.id) if acme else "missing"
    await r.call("api.tenants.get", lambda: tn.get("acme"), lambda x: eq(str(x.id), acme_id, "id"))
    await r.call("api.tenants.get_by_key", lambda: tn.get_by_key("acme"), lambda x: eq(x.name, "Acme", "name"))
    await r.call("api.tenants.get_by_id", lambda: tn.get_by_id(acme_id), lambda x: eq(x.key, "acme", "key"))
    await r.call("api.tenants.update", lambda: tn.update("acme", {"description": "the company"}), lambda x: eq(x.description, "the company", "description"))
    await r.call("api.tenants.create", lambda: tn.create({"key": "globex", "name": "Globex"}))
    await r.call("api.tenants.list", lambda: tn.list(), lambda x: expect({"acme", "globex"} <= set(keys_of(x)), f"keys {keys_of(x)}"))
    await r.call("api.tenants.bulk_create", lambda: tn.bulk_create([{"key": "bulk-t1", "name": "B1"}, {"key": "bulk-t2", "name": "B2"}]))
    await r.call("api.tenants.get", lambda: tn.get("bulk-t2"), lambda x: eq(x.name, "B2", "name"))
    await r.call("api.tenants.bulk_delete", lambda: tn.bulk_delete(["bulk-t1", "bulk-t2"]))
    await r.gone("api.tenants.get", lambda: tn.get("bulk-t1"))
    await r.call("api.create_tenant", lambda: api.create_tenant({"key": "temp", "name": "Temp"}), lambda x: eq(x.key, "temp", "key"))
    await r.call("api.get_tenant", lambda: api.get_tenant("temp"), lambda x: eq(x.name, "Temp", "name"))
    await r.call("api.update_tenant", lambda: api.update_tenant("temp", {"name": "Temp2"}), lambda x: eq(x.name, "Temp2", "name"))
    await r.call("api.list_tenants", lambda: api.list_tenants(), lambda x: expect("temp" in keys_of(x), f"keys {keys_of(x)}"))
    await r.call("api.delete_tenant", lambda: api.delete_tenant("temp"))
    await r.call("api.tenants.create", lambda: tn.create({"key": "temp2", "name": "Temp"}))
    await r.call("api.tenants.delete", lambda: tn.delete("temp2"))
    await r.gone("api.tenants.get", lambda: tn.get("temp2"))

    r.area = "users"
    us = api.users
    ana = await r.call("api.users.create", lambda: us.create({"key": "ana", "email": "ana@x.io", "attributes": {"dept": "ops"}}),
                       lambda x: (eq(x.key, "ana", "key"), eq(x.email, "ana@x.io", "email"), eq(x.attributes, {"dept": "ops"}, "attributes")))
    ana_id = str(ana.id) if ana else "missing"
    await r.call("api.users.get", lambda: us.get("ana"), lambda x: eq(str(x.id), ana_id, "id"))
    await r.call("api.users.get_by_key", lambda: us.get_by_key("ana"), lambda x: eq(x.email, "ana@x.io", "email"))
    await r.call("api.users.get_by_id", lambda: us.get_by_id(ana_id), lambda x: eq(x.key, "ana", "key"))
    await r.call("api.users.update", lambda: us.update("ana", {"first_name": "Ana"}), lambda x: eq(x.first_name, "Ana", "first_name"))
    await r.call("api.users.list", lambda: us.list(), lambda x: (expect("ana" in keys_of(x.data), f"keys {keys_of(x.data)}"), expect(x.total_count >= 1, "total_count")))
    await r.call("api.users.sync", lambda: us.sync({"key": "sam", "email": "sam@x.io"}), lambda x: eq((x.key, x.email), ("sam", "sam@x.io"), "user"))
    # sync replaces: fields not sent are cleared.
    await r.call("api.users.sync", lambda: us.sync({"key": "sam", "first_name": "Sam"}), lambda x: eq((x.first_name, x.email), ("Sam", None), "replaced user"))
    await r.call("api.sync_user", lambda: api.sync_user({"key": "lee", "email": "lee@x.io"}), lambda x: eq(x.key, "lee", "key"))
    await r.call("api.get_user", lambda: api.get_user("lee"), lambda x: eq(x.email, "lee@x.io", "email"))
    await r.call("api.delete_user", lambda: api.delete_user("lee"))
    await r.gone("api.users.get", lambda: us.get("lee"))
    await r.call("api.users.create", lambda: us.create({"key": "tmp-user"}))
    await r.call("api.users.delete", lambda: us.delete("tmp-user"))
    await r.gone("api.users.get", lambda: us.get("tmp-user"))
    await r.call("api.users.bulk_create", lambda: us.bulk_create([{"key": "bulk-1"}, {"key": "bulk-2", "email": "b2@x.io"}]))
    await r.call("api.users.get", lambda: us.get("bulk-2"), lambda x: eq(x.email, "b2@x.io", "email"))
    await r.call("api.users.bulk_replace", lambda: us.bulk_replace([{"key": "bulk-2", "first_name": "Two"}, {"key": "bulk-3"}]))
    await r.call("api.users.get", lambda: us.get("bulk-2"), lambda x: eq((x.email, x.first_name), (None, "Two"), "replaced user"))
    await r.call("api.users.bulk_delete", lambda: us.bulk_delete(["bulk-1", "bulk-2", "bulk-3"]))
    await r.gone("api.users.get", lambda: us.get("bulk-3"))

    r.area = "user_roles"
    await r.call("api.users.assign_role", lambda: us.assign_role({"user": "ana", "role": "writer", "tenant": "acme"}),
                 lambda x: eq((x.user, x.role, x.tenant), ("ana", "writer", "acme"), "assignment"))
    await r.call("check", lambda: permit.check("ana", "write", {"type": "doc", "tenant": "acme"}), lambda x: eq(x, True, "ana may write docs in acme"))
    await r.call("check", lambda: permit.check("ana", "read", {"type": "doc", "tenant": "acme"}), lambda x: eq(x, True, "writer extends reader"))
    await r.call("check", lambda: permit.check("ana", "write", {"type": "doc", "tenant": "globex"}), lambda x: eq(x, False, "ana may not write in globex"))
    await r.call("api.users.get_assigned_roles", lambda: us.get_assigned_roles("ana", tenant="acme"), lambda x: eq([a.role for a in x], ["writer"], "roles"))
    await r.call("api.users.get", lambda: us.get("ana"),
                 lambda x: eq([(t.tenant, t.roles) for t in (x.associated_tenants or [])], [("acme", ["writer"])], "associated_tenants"))
    await r.call("api.users.unassign_role", lambda: us.unassign_role({"user": "ana", "role": "writer", "tenant": "acme"}))
    await r.call("check", lambda: permit.check("ana", "write", {"type": "doc", "tenant": "acme"}), lambda x: eq(x, False, "unassigned"))
    await r.call("api.users.get_assigned_roles", lambda: us.get_assigned_roles("ana", tenant="acme"), lambda x: eq(list(x), [], "roles"))
    await r.call("api.assign_role", lambda: api.assign_role("ana", "writer", "acme"), lambda x: eq((x.user, x.role, x.tenant), ("ana", "writer", "acme"), "assignment"))
    await r.call("api.get_assigned_roles", lambda: api.get_assigned_roles("ana", "acme"), lambda x: eq([a.role for a in x], ["writer"], "roles"))
    await r.call("api.unassign_role", lambda: api.unassign_role("ana", "writer", "acme"))
    await r.call("api.get_assigned_roles", lambda: api.get_assigned_roles("ana", "acme"), lambda x: eq(list(x), [], "roles"))
    await r.call("api.users.create", lambda: us.create({"key": "tia"}))
    await r.call("api.users.assign_role", lambda: us.assign_role({"user": "tia", "role": "reader", "tenant": "globex"}))
    await r.call("api.tenants.list_tenant_users", lambda: tn.list_tenant_users("globex"), lambda x: eq(keys_of(x.data), ["tia"], "tenant users"))
    await r.call("api.tenants.delete_tenant_user", lambda: tn.delete_tenant_user("globex", "tia"))
    await r.call("api.tenants.list_tenant_users", lambda: tn.list_tenant_users("globex"), lambda x: eq(keys_of(x.data), [], "tenant users"))

    r.area = "resource_instances"
    ri = api.resource_instances
    readme = await r.call("api.resource_instances.create", lambda: ri.create({"key": "readme", "tenant": "acme", "resource": "doc", "attributes": {"lang": "en"}}),
                          lambda x: eq((x.key, x.tenant, x.resource, x.attributes), ("readme", "acme", "doc", {"lang": "en"}), "instance"))
    readme_id = str(readme.id) if readme else "missing"
    await r.call("api.resource_instances.get", lambda: ri.get("doc:readme"), lambda x: eq(str(x.id), readme_id, "id"))
    await r.call("api.resource_instances.get_by_key", lambda: ri.get_by_key("doc:readme"), lambda x: eq(x.key, "readme", "key"))
    await r.call("api.resource_instances.get_by_id", lambda: ri.get_by_id(readme_id), lambda x: eq(x.key, "readme", "key"))
    await r.call("api.resource_instances.update", lambda: ri.update("doc:readme", {"attributes": {"lang": "fr"}}), lambda x: eq(x.attributes, {"lang": "fr"}, "attributes"))
    await r.call("api.resource_instances.create", lambda: ri.create({"key": "root", "tenant": "acme", "resource": "folder"}))
    await r.call("api.resource_instances.list", lambda: ri.list(resource_key="doc"), lambda x: eq(keys_of(x), ["readme"], "doc instances"))
    await r.call("api.resource_instances.list", lambda: ri.list(tenant_key="acme"), lambda x: eq(keys_of(x), ["readme", "root"], "acme instances"))
    await r.call("api.resource_instances.bulk_replace", lambda: ri.bulk_replace([{"key": "b1", "tenant": "acme", "resource": "doc"}, {"key": "b2", "tenant": "acme", "resource": "doc"}]))
    await r.call("api.resource_instances.get", lambda: ri.get("doc:b2"), lambda x: eq(x.tenant, "acme", "tenant"))
    await r.call("api.resource_instances.bulk_delete", lambda: ri.bulk_delete(["doc:b1", "doc:b2"]))
    await r.gone("api.resource_instances.get", lambda: ri.get("doc:b1"))
    await r.call("api.resource_instances.create", lambda: ri.create({"key": "tmp", "tenant": "acme", "resource": "doc"}))
    await r.call("api.resource_instances.delete", lambda: ri.delete("doc:tmp"))
    await r.gone("api.resource_instances.get", lambda: ri.get("doc:tmp"))

    r.area = "role_assignments"
    ras = api.role_assignments
    await r.call("api.role_assignments.assign", lambda: ras.assign({"user": "sam", "role": "reader", "tenant": "globex"}),
                 lambda x: eq((x.user, x.role, x.tenant), ("sam", "reader", "globex"), "assignment"))
    await r.call("api.role_assignments.assign", lambda: ras.assign({"user": "ana", "role": "editor", "resource_instance": "doc:readme", "tenant": "acme"}),
                 lambda x: eq((x.user, x.role, x.resource_instance), ("ana", "editor", "doc:readme"), "instance assignment"))
    await r.call("api.role_assignments.list", lambda: ras.list(user_key="sam"), lambda x: eq([(a.role, a.tenant) for a in x], [("reader", "globex")], "sam's roles"))
    await r.call("api.role_assignments.list", lambda: ras.list(role_key="editor"), lambda x: eq([(a.user, a.resource_instance) for a in x], [("ana", "doc:readme")], "editors"))
    await r.call("api.role_assignments.bulk_assign", lambda: ras.bulk_assign([{"user": "ana", "role": "reader", "tenant": "globex"}, {"user": "tia", "role": "writer", "tenant": "globex"}]))
    await r.call("api.role_assignments.list", lambda: ras.list(tenant_key="globex"), lambda x: eq(sorted((a.user, a.role) for a in x), [("ana", "reader"), ("sam", "reader"), ("tia", "writer")], "globex roles"))
    # The local PDP's list (GET /local/role_assignments): the same assignments in the PDP's model.
    pdp_ras = permit.pdp_api.role_assignments
    await r.call("pdp_api.role_assignments.list", lambda: pdp_ras.list(tenant_key="globex"),
                 lambda x: eq(sorted((a.user, a.role, a.tenant, a.resource_instance) for a in x),
                              [("ana", "reader", "globex", None), ("sam", "reader", "globex", None), ("tia", "writer", "globex", None)], "globex roles"))
    await r.call("pdp_api.role_assignments.list", lambda: pdp_ras.list(user_key="ana", resource_key="doc"),
                 lambda x: eq([(a.role, a.tenant, a.resource_instance) for a in x], [("editor", "acme", "doc:readme")], "ana's roles on docs"))
    await r.call("pdp_api.role_assignments.list", lambda: pdp_ras.list(resource_instance_key="doc:readme", role_key="editor", page=1, per_page=1),
                 lambda x: eq([a.user for a in x], ["ana"], "editors of doc:readme"))
    await r.call("api.role_assignments.bulk_unassign", lambda: ras.bulk_unassign([{"user": "tia", "role": "writer", "tenant": "globex"}]))
    await r.call("check", lambda: permit.check("tia", "write", {"type": "doc", "tenant": "globex"}), lambda x: eq(x, False, "bulk-unassigned"))
    await r.call("api.role_assignments.assign", lambda: ras.assign({"user": "tia", "role": "reader", "tenant": "acme"}))
    await r.call("api.role_assignments.unassign", lambda: ras.unassign({"user": "tia", "role": "reader", "tenant": "acme"}))
    await r.call("api.role_assignments.list", lambda: ras.list(user_key="tia", tenant_key="acme"), lambda x: eq(list(x), [], "tia's acme roles"))

    r.area = "relationship_tuples"
    rt = api.relationship_tuples
    await r.call("api.resource_instances.create", lambda: ri.create({"key": "notes", "tenant": "acme", "resource": "doc"}))
    await r.call("api.role_assignments.assign", lambda: ras.assign({"user": "sam", "role": "viewer", "resource_instance": "folder:root", "tenant": "acme"}))
    await r.call("check", lambda: permit.check("sam", "read", {"type": "doc", "key": "notes", "tenant": "acme"}), lambda x: eq(x, False, "before the tuple"))
    await r.call("api.relationship_tuples.create", lambda: rt.create({"subject": "folder:root", "relation": "parent", "object": "doc:notes", "tenant": "acme"}),
                 lambda x: eq((x.subject, x.relation, x.object), ("folder:root", "parent", "doc:notes"), "tuple"))
    await r.call("check", lambda: permit.check("sam", "read", {"type": "doc", "key": "notes", "tenant": "acme"}), lambda x: eq(x, True, "viewer derived through the parent folder"))
    await r.call("api.relationship_tuples.list", lambda: rt.list(object_key="doc:notes"), lambda x: eq([(t.subject, t.relation) for t in x], [("folder:root", "parent")], "tuples"))
    # detailed=true: Permit's detailed models. resource_instances.list takes detailed_key (the SDK
    # parses ResourceInstanceRead and keeps `relationships`); the other two lists have no SDK
    # argument here: raw HTTP, parsed with the SDK's RoleAssignmentDetailedRead and
    # RelationshipTupleDetailedRead.
    await r.call("api.resource_instances.list", lambda: ri.list(resource_key="doc", detailed_key=True),
                 lambda x: eq([(i.key, getattr(i, "relationships", None)) for i in x if i.key == "notes"],
                              [("notes", [{"subject": "folder:root", "relation": "parent", "object": "doc:notes"}])], "detailed instances"))
    from permit.api.models import RelationshipTupleDetailedRead, RoleAssignmentDetailedRead
    facts = f"/v2/facts/{os.environ.get('PERMIT_PROJECT', '')}/{os.environ.get('PERMIT_ENV', '')}"
    await r.call("GET .../relationship_tuples?detailed=true", lambda: raw("GET", f"{facts}/relationship_tuples?object=doc:notes&detailed=true", [RelationshipTupleDetailedRead]),
                 lambda x: eq([(t.subject_details.key, t.subject_details.resource, t.relation_details.key, t.object_details.key, t.object_details.tenant) for t in x],
                              [("root", "folder", "parent", "notes", "acme")], "detailed tuples"))
    await r.call("GET .../role_assignments?detailed=true", lambda: raw("GET", f"{facts}/role_assignments?user=ana&detailed=true", [RoleAssignmentDetailedRead]),
                 lambda x: eq(sorted((a.user.key, a.user.email, a.role.key, a.tenant.key, a.resource_instance.key if a.resource_instance else None) for a in x),
                              [("ana", "ana@x.io", "editor", "acme", "readme"), ("ana", "ana@x.io", "reader", "globex", None)], "detailed assignments"))
    await r.call("api.relationship_tuples.delete", lambda: rt.delete({"subject": "folder:root", "relation": "parent", "object": "doc:notes"}))
    await r.call("check", lambda: permit.check("sam", "read", {"type": "doc", "key": "notes", "tenant": "acme"}), lambda x: eq(x, False, "after the tuple's delete"))
    await r.call("api.relationship_tuples.bulk_create", lambda: rt.bulk_create([
        {"subject": "folder:root", "relation": "parent", "object": "doc:notes", "tenant": "acme"},
        {"subject": "folder:root", "relation": "parent", "object": "doc:readme", "tenant": "acme"}]))
    await r.call("api.relationship_tuples.list", lambda: rt.list(subject_key="folder:root", tenant_key="acme"), lambda x: eq(sorted(t.object for t in x), ["doc:notes", "doc:readme"], "tuples"))
    await r.call("api.relationship_tuples.bulk_delete", lambda: rt.bulk_delete([{"subject": "folder:root", "relation": "parent", "object": "doc:readme"}]))
    await r.call("api.relationship_tuples.list", lambda: rt.list(subject_key="folder:root"), lambda x: eq([t.object for t in x], ["doc:notes"], "tuples"))

    await action_groups(r, permit)
    await user_invites(r, permit)
    await pdp(r, permit)

    r.area = "elements"
    await r.call("api.users.create", lambda: us.create({"key": "pat"}))
    await r.call("api.users.assign_role", lambda: us.assign_role({"user": "pat", "role": "reader", "tenant": "acme"}))
    await r.call("elements.login_as", lambda: permit.elements.login_as("pat", "acme"),
                 lambda x: (expect(bool(x.token), "token"), expect(bool(x.redirect_url), "redirect_url"), eq(x.content, {"url": x.redirect_url}, "content")))
    await r.call("api.elements_login_as", lambda: api.elements_login_as("pat", "acme"), lambda x: expect(bool(x.token) and bool(x.redirect_url), "token and redirect_url"))
    await r.gone("elements.login_as", lambda: permit.elements.login_as("nobody", "acme"))

    await abac(r, permit)
    await projects_and_environments(r, org)


async def abac(r: Run, permit: Permit) -> None:
    """The ABAC walkthrough (docs/behaviour.md section 17): users with department and clearance, documents with
    classification, the user set "engineering", the resource set "internal docs", a set rule granting
    read, and a second rule (review) that a context attribute decides."""
    r.area = "abac"
    api = permit.api
    ra, cs, rules = api.resource_attributes, api.condition_sets, api.condition_set_rules
    await r.call("api.resources.create", lambda: api.resources.create({"key": "document", "name": "Document", "actions": {"read": {}, "review": {}}}))
    await r.call("api.tenants.create", lambda: api.tenants.create({"key": "abac-co", "name": "ABAC Co"}))
    cls = await r.call("api.resource_attributes.create", lambda: ra.create("document", {"key": "classification", "type": "string"}),
                       lambda x: (eq((x.key, x.type.value, x.resource_key, x.built_in), ("classification", "string", "document", False), "attribute")))
    await r.call("api.resource_attributes.create", lambda: ra.create("document", {"key": "pages", "type": "number"}))
    await r.call("api.resource_attributes.create", lambda: ra.create("__user", {"key": "department", "type": "string"}))
    await r.call("api.resource_attributes.create", lambda: ra.create("__user", {"key": "clearance", "type": "number"}))
    await r.call("api.resource_attributes.get", lambda: ra.get("document", "classification"), lambda x: eq(x.type.value, "string", "type"))
    await r.call("api.resource_attributes.get_by_key", lambda: ra.get_by_key("__user", "clearance"), lambda x: eq(x.type.value, "number", "type"))
    if cls:
        await r.call("api.resource_attributes.get_by_id", lambda: ra.get_by_id(str(cls.resource_id), str(cls.id)), lambda x: eq(x.key, "classification", "key"))
    await r.call("api.resource_attributes.update", lambda: ra.update("document", "pages", {"description": "page count"}), lambda x: eq(x.description, "page count", "description"))
    await r.call("api.resource_attributes.list", lambda: ra.list("document"), lambda x: eq(keys_of(x), ["classification", "pages"], "attributes"))
    await r.call("api.resource_attributes.delete", lambda: ra.delete("document", "pages"))
    await r.gone("api.resource_attributes.get", lambda: ra.get("document", "pages"))

    for key, dept, clearance in (("eve", "engineering", 3), ("finn", "sales", 5), ("gus", "engineering", 1)):
        await r.call("api.users.create", lambda: api.users.create({"key": key, "attributes": {"department": dept, "clearance": clearance}}))
    for key, level in (("design", "internal"), ("payroll", "secret")):
        await r.call("api.resource_instances.create",
                     lambda: api.resource_instances.create({"key": key, "tenant": "abac-co", "resource": "document", "attributes": {"classification": level}}))

    eng = await r.call("api.condition_sets.create", lambda: cs.create({
        "key": "engineering", "name": "Engineering", "type": "userset",
        "conditions": {"allOf": [{"allOf": [{"user.department": {"equals": "engineering"}}]}]}}),
        lambda x: eq((x.key, x.type.value, x.parent_id), ("engineering", "userset", None), "user set"))
    await r.call("api.condition_sets.create", lambda: cs.create({
        "key": "internal-docs", "name": "Internal docs", "type": "resourceset", "resource_id": "document",
        "conditions": {"allOf": [{"resource.classification": {"equals": "internal"}}]}}),
        lambda x: eq(x.type.value, "resourceset", "resource set"))
    await r.call("api.condition_sets.create", lambda: cs.create({
        "key": "office", "name": "On the office network", "type": "userset",
        "conditions": {"allOf": [{"user.clearance": {"greater-than-equals": 3}}, {"context.network": {"equals": "office"}}]}}))
    await r.call("api.condition_sets.get", lambda: cs.get("engineering"), lambda x: eq(x.name, "Engineering", "name"))
    await r.call("api.condition_sets.get_by_key", lambda: cs.get_by_key("internal-docs"), lambda x: eq(x.conditions, {"allOf": [{"resource.classification": {"equals": "internal"}}]}, "conditions"))
    if eng:
        await r.call("api.condition_sets.get_by_id", lambda: cs.get_by_id(str(eng.id)), lambda x: eq(x.key, "engineering", "key"))
    await r.call("api.condition_sets.update", lambda: cs.update("engineering", {"name": "Engineers"}),
                 lambda x: eq((x.name, x.conditions), ("Engineers", {"allOf": [{"allOf": [{"user.department": {"equals": "engineering"}}]}]}), "renamed, conditions kept"))
    await r.call("api.condition_sets.list", lambda: cs.list(), lambda x: eq(keys_of(x), ["engineering", "internal-docs", "office"], "sets"))
    await r.call("api.condition_sets.create", lambda: cs.create({"key": "scratch", "name": "Scratch"}))
    await r.call("api.condition_sets.delete", lambda: cs.delete("scratch"))
    await r.gone("api.condition_sets.get", lambda: cs.get("scratch"))

    def doc(key: str) -> Dict[str, Any]:
        return {"type": "document", "key": key, "tenant": "abac-co"}

    await r.call("check", lambda: permit.check("eve", "read", doc("design")), lambda x: eq(x, False, "before the rule"))
    await r.call("api.condition_set_rules.create", lambda: rules.create({"user_set": "engineering", "permission": "document:read", "resource_set": "internal-docs"}),
                 lambda x: eq([(y.user_set, y.permission, y.resource_set) for y in x], [("engineering", "document:read", "internal-docs")], "rule"))
    await r.call("check", lambda: permit.check("eve", "read", doc("design")), lambda x: eq(x, True, "engineering reads internal docs"))
    await r.call("check", lambda: permit.check("gus", "read", doc("design")), lambda x: eq(x, True, "any engineer"))
    await r.call("check", lambda: permit.check("eve", "read", doc("payroll")), lambda x: eq(x, False, "secret is not internal"))
    await r.call("check", lambda: permit.check("finn", "read", doc("design")), lambda x: eq(x, False, "sales is not engineering"))
    await r.call("check", lambda: permit.check({"key": "finn", "attributes": {"department": "engineering"}}, "read", doc("design")),
                 lambda x: eq(x, True, "attributes sent overlay the stored ones"))
    await r.call("check", lambda: permit.check("eve", "read", {**doc("payroll"), "attributes": {"classification": "internal"}}),
                 lambda x: eq(x, True, "resource attributes sent overlay the stored ones"))

    # The second rule: review, for clearance >= 3 on the office network (a context attribute).
    await r.call("api.condition_set_rules.create", lambda: rules.create({"user_set": "office", "permission": "document:review", "resource_set": "internal-docs"}))
    await r.call("check", lambda: permit.check("eve", "review", doc("design"), {"network": "office"}), lambda x: eq(x, True, "clearance 3 in the office"))
    await r.call("check", lambda: permit.check("eve", "review", doc("design"), {"network": "home"}), lambda x: eq(x, False, "clearance 3 at home"))
    await r.call("check", lambda: permit.check("eve", "review", doc("design")), lambda x: eq(x, False, "no context: missing is false"))
    await r.call("check", lambda: permit.check("gus", "review", doc("design"), {"network": "office"}), lambda x: eq(x, False, "clearance 1"))
    await r.call("bulk_check", lambda: permit.bulk_check([
        {"user": "eve", "action": "read", "resource": doc("design")},
        {"user": "finn", "action": "read", "resource": doc("design")},
        {"user": "eve", "action": "review", "resource": doc("design"), "context": {"network": "office"}},
    ]), lambda x: eq(x, [True, False, True], "bulk"))
    await r.call("get_user_permissions", lambda: permit.get_user_permissions("eve", tenants=["abac-co"]),
                 lambda x: eq(x["document:design"]["permissions"], ["document:read"], "eve's permissions on design"))
    await r.call("authorized_users", lambda: permit.authorized_users("read", doc("design")),
                 lambda x: eq(sorted(x.users.keys()), ["eve", "gus"], "readers of design"))
    await r.call("api.condition_set_rules.list", lambda: rules.list(user_set_key="engineering"),
                 lambda x: eq([y.permission for y in x], ["document:read"], "rules of engineering"))
    await r.call("api.condition_set_rules.delete", lambda: rules.delete({"user_set": "engineering", "permission": "document:read", "resource_set": "internal-docs"}))
    await r.call("check", lambda: permit.check("eve", "read", doc("design")), lambda x: eq(x, False, "after the rule's delete"))


async def action_groups(r: Run, permit: Permit) -> None:
    """Permit's action groups (docs/behaviour.md section 23): a role given a group may do its actions,
    and follows the group when its actions change; roles answer their permissions as written."""
    api = permit.api
    ag = api.action_groups
    r.area = "action_groups"
    sheet = await r.call("api.resources.create", lambda: api.resources.create(
        {"key": "sheet", "name": "Sheet", "actions": {"view": {}, "comment": {}, "edit": {}, "purge": {}}}))
    sheet_id = str(sheet.id) if sheet else "missing"
    group = await r.call("api.action_groups.create", lambda: ag.create("sheet", {"key": "contribute", "name": "Contribute", "description": "see and talk",
                                                                                  "attributes": {"tier": 1}, "actions": ["view", "comment"]}),
                         lambda x: (eq((x.key, x.name, x.description, x.attributes, x.actions), ("contribute", "Contribute", "see and talk", {"tier": 1}, ["view", "comment"]), "group"),
                                    eq(str(x.resource_id), sheet_id, "resource_id")))
    group_id = str(group.id) if group else "missing"
    await r.call("api.action_groups.get", lambda: ag.get("sheet", "contribute"), lambda x: eq(str(x.id), group_id, "id"))
    await r.call("api.action_groups.get_by_key", lambda: ag.get_by_key("sheet", "contribute"), lambda x: eq(x.actions, ["view", "comment"], "actions"))
    await r.call("api.action_groups.get_by_id", lambda: ag.get_by_id(sheet_id, group_id), lambda x: eq(x.key, "contribute", "key"))
    await r.call("api.action_groups.create", lambda: ag.create("sheet", {"key": "tmp", "name": "Tmp", "actions": ["purge"]}))
    await r.call("api.action_groups.list", lambda: ag.list("sheet"), lambda x: eq([g.key for g in x], ["contribute", "tmp"], "keys, oldest first"))
    await r.refused("api.action_groups.create", lambda: ag.create("sheet", {"key": "bad", "name": "Bad", "actions": ["fly"]}), 422)
    await r.refused("api.action_groups.create", lambda: ag.create("sheet", {"key": "contribute", "name": "Again"}), 409)
    await r.call("api.roles.create", lambda: api.roles.create({"key": "sheet-contributor", "name": "Contributor", "permissions": ["sheet:contribute"]}),
                 lambda x: eq(x.permissions, ["sheet:contribute"], "permissions as written"))
    await r.call("api.resource_roles.create", lambda: api.resource_roles.create("sheet", {"key": "commenter", "name": "Commenter", "permissions": ["contribute"]}),
                 lambda x: eq(x.permissions, ["contribute"], "permissions as written"))
    await r.call("api.users.create", lambda: api.users.create({"key": "gia"}))
    await r.call("api.users.assign_role", lambda: api.users.assign_role({"user": "gia", "role": "sheet-contributor", "tenant": "acme"}))
    await r.call("api.users.create", lambda: api.users.create({"key": "hal"}))
    await r.call("api.resource_instances.create", lambda: api.resource_instances.create({"key": "plan", "tenant": "acme", "resource": "sheet"}))
    await r.call("api.role_assignments.assign", lambda: api.role_assignments.assign({"user": "hal", "role": "commenter", "tenant": "acme", "resource_instance": "sheet:plan"}))
    plan = {"type": "sheet", "key": "plan", "tenant": "acme"}
    await r.call("bulk_check", lambda: permit.bulk_check([
        {"user": "gia", "action": "comment", "resource": plan}, {"user": "gia", "action": "edit", "resource": plan},
        {"user": "hal", "action": "view", "resource": plan}, {"user": "hal", "action": "edit", "resource": plan},
    ]), lambda x: eq(x, [True, False, True, False], "the group's actions, and no other"))
    await r.call("api.action_groups.update", lambda: ag.update("sheet", "contribute", {"actions": ["view", "comment", "edit"]}),
                 lambda x: (eq(x.actions, ["view", "comment", "edit"], "actions"), eq(x.description, "see and talk", "description kept")))
    await r.call("bulk_check", lambda: permit.bulk_check([
        {"user": "gia", "action": "edit", "resource": plan}, {"user": "hal", "action": "edit", "resource": plan}, {"user": "hal", "action": "purge", "resource": plan},
    ]), lambda x: eq(x, [True, True, False], "the roles follow the group's new actions"))
    await r.call("api.roles.get", lambda: api.roles.get("sheet-contributor"), lambda x: eq(x.permissions, ["sheet:contribute"], "still as written"))
    await r.call("api.action_groups.delete", lambda: ag.delete("sheet", "tmp"))
    await r.gone("api.action_groups.get", lambda: ag.get("sheet", "tmp"))
    # A group in use is taken off the roles that hold it, with the actions it gave them.
    await r.call("api.action_groups.delete", lambda: ag.delete("sheet", "contribute"))
    await r.call("api.roles.get", lambda: api.roles.get("sheet-contributor"), lambda x: eq(x.permissions, [], "the deleted group's permission"))
    await r.call("api.resource_roles.get", lambda: api.resource_roles.get("sheet", "commenter"), lambda x: eq(x.permissions, [], "the deleted group's permission"))
    await r.call("check", lambda: permit.check("gia", "view", plan), lambda x: eq(x, False, "nothing left to give view"))
    await r.call("api.roles.delete", lambda: api.roles.delete("sheet-contributor"))
    await r.call("api.resources.delete", lambda: api.resources.delete("sheet"))


async def user_invites(r: Run, permit: Permit) -> None:
    """Permit's user invites (docs/behaviour.md section 25): a record its user redeems into a user with
    the invite's role. No mail is sent."""
    api = permit.api
    ui = api.user_invites
    r.area = "user_invites"
    viewer = await r.call("api.resource_roles.get", lambda: api.resource_roles.get("doc", "viewer"))
    acme = await r.call("api.tenants.get", lambda: api.tenants.get("acme"))
    readme = await r.call("api.resource_instances.get", lambda: api.resource_instances.get("doc:readme"))
    ids = {"role_id": str(viewer.id) if viewer else "missing", "tenant_id": str(acme.id) if acme else "missing",
           "resource_instance_id": str(readme.id) if readme else "missing"}
    readme_ref = {"type": "doc", "key": "readme", "tenant": "acme"}
    invite = await r.call("api.user_invites.create", lambda: ui.create({"key": "ivy", "email": "ivy@x.io", "first_name": "Ivy", "last_name": "Lee", "status": "pending", **ids}),
                          lambda x: (eq((x.key, x.email, x.first_name, x.status), ("ivy", "ivy@x.io", "Ivy", "pending"), "invite"),
                                     eq((str(x.role_id), str(x.tenant_id), str(x.resource_instance_id)), (ids["role_id"], ids["tenant_id"], ids["resource_instance_id"]), "ids")))
    invite_id = str(invite.id) if invite else "missing"
    await r.call("api.user_invites.get", lambda: ui.get(invite_id), lambda x: eq(x.key, "ivy", "key"))
    await r.call("api.user_invites.list", lambda: ui.list(), lambda x: (expect(invite_id in [str(i.id) for i in x.data], "the invite listed"), expect(x.total_count >= 1, "total_count")))
    await r.call("check", lambda: permit.check("ivy", "read", readme_ref), lambda x: eq(x, False, "no user before the invite is redeemed"))
    await r.refused("api.user_invites.approve", lambda: ui.approve(invite_id, {"email": "eve@x.io", "key": "ivy", "attributes": {}}), 422)
    await r.call("api.user_invites.approve", lambda: ui.approve(invite_id, {"email": "ivy@x.io", "key": "ivy", "attributes": {"team": "docs"}}),
                 lambda x: eq((x.key, x.email, x.first_name, x.attributes), ("ivy", "ivy@x.io", "Ivy", {"team": "docs"}), "the user"))
    await r.call("api.role_assignments.list", lambda: api.role_assignments.list(user_key="ivy"),
                 lambda x: eq([(a.role, a.tenant, a.resource_instance) for a in x], [("viewer", "acme", "doc:readme")], "the invite's role"))
    await r.call("check", lambda: permit.check("ivy", "read", readme_ref), lambda x: eq(x, True, "the invite's role on doc:readme"))
    await r.call("api.user_invites.get", lambda: ui.get(invite_id), lambda x: eq(x.status, "approved", "status"))
    await r.refused("api.user_invites.approve", lambda: ui.approve(invite_id, {"email": "ivy@x.io", "key": "ivy", "attributes": {}}), 409)
    other = await r.call("api.user_invites.create", lambda: ui.create({"key": "zed", "email": "zed@x.io", "first_name": "Zed", "last_name": "Z", "status": "approved", **ids}),
                          lambda x: eq(x.status, "pending", "an invite starts pending, whatever the status sent"))
    other_id = str(other.id) if other else "missing"
    await r.call("api.user_invites.delete", lambda: ui.delete(other_id))
    await r.gone("api.user_invites.get", lambda: ui.get(other_id))
    await r.call("api.users.delete", lambda: api.users.delete("ivy"))


async def pdp(r: Run, permit: Permit) -> None:
    r.area = "pdp"
    # State here: ana: editor on doc:readme (acme), reader in globex; sam: reader in globex, viewer on folder:root.
    await r.call("check", lambda: permit.check("ana", "read", "doc"), lambda x: eq(x, False, "no tenant role in the default tenant (string form)"))
    await r.call("check", lambda: permit.check({"key": "ana", "email": "ana@x.io"}, "write", {"type": "doc", "key": "readme", "tenant": "acme"}), lambda x: eq(x, True, "editor on doc:readme"))
    await r.call("check", lambda: permit.check("ana", "write", {"type": "doc", "id": "readme", "tenant": "acme"}), lambda x: eq(x, True, "resource named by id"))
    await r.call("check", lambda: permit.check("sam", "write", {"type": "doc", "key": "readme", "tenant": "acme"}), lambda x: eq(x, False, "sam may not write readme"))
    await r.call("bulk_check", lambda: permit.bulk_check([
        {"user": "ana", "action": "write", "resource": {"type": "doc", "key": "readme", "tenant": "acme"}},
        {"user": "sam", "action": "read", "resource": {"type": "doc", "tenant": "globex"}},
        {"user": "sam", "action": "write", "resource": {"type": "doc", "tenant": "globex"}},
        {"user": "sam", "action": "read", "resource": {"type": "doc", "key": "notes", "tenant": "acme"}},
    ]), lambda x: eq(x, [True, True, False, True], "answers in order"))
    resources = [{"type": "doc", "key": "readme", "tenant": "acme"}, {"type": "doc", "key": "notes", "tenant": "acme"}]
    await r.call("filter_objects", lambda: permit.filter_objects("ana", "write", {}, resources), lambda x: eq(x, [resources[0]], "ana may write readme only"))
    await r.call("filter_objects", lambda: permit.filter_objects("sam", "read", {}, resources), lambda x: eq(x, [resources[1]], "sam may read notes only"))

    def ana_perms(x: Dict[str, Any]) -> None:
        expect("editor" in x["doc:readme"]["roles"], f"editor on doc:readme: {x['doc:readme']}")
        expect("doc:write" in x["doc:readme"]["permissions"], f"doc:write on readme: {x['doc:readme']}")
        eq(x["__tenant:globex"]["roles"], ["reader"], "roles in globex")

    await r.call("get_user_permissions", lambda: permit.get_user_permissions("ana"), ana_perms)
    await r.call("get_user_permissions", lambda: permit.get_user_permissions("ana", tenants=["globex"]),
                 lambda x: eq(sorted(x.keys()), ["__tenant:globex"], "only globex"))
    await r.call("authorized_users", lambda: permit.authorized_users("write", {"type": "doc", "key": "readme", "tenant": "acme"}),
                 lambda x: (eq(sorted(x.users.keys()), ["ana"], "writers of readme"), eq(x.users["ana"][0].role, "editor", "granting role")))
    await r.call("authorized_users", lambda: permit.authorized_users("read", {"type": "doc", "tenant": "globex"}),
                 lambda x: eq(sorted(x.users.keys()), ["ana", "sam"], "readers in globex"))


async def projects_and_environments(r: Run, org: Permit) -> None:
    r.area = "projects"
    pr = org.api.projects
    key = "py-sdk-" + os.environ.get("PERMIT_PROJECT", "x")
    p = await r.call("api.projects.create", lambda: pr.create({"key": key, "name": "SDK project"}), lambda x: eq(x.key, key, "key"))
    p_id = str(p.id) if p else "missing"
    await r.call("api.projects.get", lambda: pr.get(key), lambda x: eq(str(x.id), p_id, "id"))
    await r.call("api.projects.get_by_key", lambda: pr.get_by_key(key), lambda x: eq(x.name, "SDK project", "name"))
    await r.call("api.projects.get_by_id", lambda: pr.get_by_id(p_id), lambda x: eq(x.key, key, "key"))
    await r.call("api.projects.update", lambda: pr.update(key, {"name": "Renamed", "description": "by the SDK"}), lambda x: eq((x.name, x.description), ("Renamed", "by the SDK"), "fields"))
    # Projects are listed by key, 100 a page: on a shared deployment this one may be on a later page.
    async def all_projects():
        found, page = [], 1
        while True:
            batch = await pr.list(page=page, per_page=100)
            found += batch
            if len(batch) < 100:
                return found
            page += 1

    await r.call("api.projects.list", all_projects, lambda x: expect(key in keys_of(x), f"{key} not in the {len(x)} listed"))

    r.area = "environments"
    en = org.api.environments
    e = await r.call("api.environments.create", lambda: en.create(key, {"key": "stage", "name": "Stage"}), lambda x: eq(x.key, "stage", "key"))
    e_id = str(e.id) if e else "missing"
    await r.call("api.environments.get", lambda: en.get(key, "stage"), lambda x: eq(str(x.id), e_id, "id"))
    await r.call("api.environments.get_by_key", lambda: en.get_by_key(key, "stage"), lambda x: eq(x.name, "Stage", "name"))
    await r.call("api.environments.get_by_id", lambda: en.get_by_id(p_id, e_id), lambda x: eq(x.key, "stage", "key"))
    await r.call("api.environments.update", lambda: en.update(key, "stage", {"name": "Staging"}), lambda x: eq(x.name, "Staging", "name"))
    await r.call("api.environments.list", lambda: en.list(key), lambda x: eq(keys_of(x), ["stage"], "keys"))
    # Permit's APIKeyRead of an environment's key: every environment has one from its creation,
    # answered without a secret (a secret is answered once, by the call that makes it).
    stage_ids = (p_id, e_id)
    await r.call("api.environments.get_api_key", lambda: en.get_api_key(key, "stage"),
                 lambda x: eq((str(x.project_id), str(x.environment_id), x.secret, x.name), (*stage_ids, None, "Environment key"),
                              "project_id, environment_id, secret, name"))
    # And the environment the test made a key for: its own key comes first. If a secret is
    # answered, it must work.
    home_p, home_e = os.environ.get("PERMIT_PROJECT", ""), os.environ.get("PERMIT_ENV", "")
    home = await r.call("api.environments.get", lambda: en.get(home_p, home_e), lambda x: eq(x.key, home_e, "key"))
    home_ids = (str(home.project_id), str(home.id)) if home else ("missing", "missing")
    key_read = await r.call("api.environments.get_api_key", lambda: en.get_api_key(home_p, home_e),
                            lambda x: eq((str(x.project_id), str(x.environment_id)), home_ids, "project_id, environment_id"))
    if key_read is not None and key_read.secret:
        keyed = Permit(pdp=URL, api_url=URL, token=key_read.secret)
        await r.call("api.tenants.list", lambda: keyed.api.tenants.list(), lambda x: expect("acme" in keys_of(x), f"tenants {keys_of(x)}"))
    # Statistics and Permit's copy of schema objects, between two environments of this project.
    admin = lambda method, path, body=None: raw(method, path, None, body, ORG_TOKEN)  # noqa: E731
    await r.call("api.environments.create", lambda: en.create(key, {"key": "src", "name": "Source"}), lambda x: eq(x.key, "src", "key"))
    await r.call("POST .../resources (src)", lambda: admin("POST", f"/v2/schema/{key}/src/resources",
                 {"key": "doc", "name": "Doc", "actions": {"read": {}, "write": {}}, "roles": {"reader": {"name": "Reader", "permissions": ["read"]}}}))
    await r.call("POST .../roles (src)", lambda: admin("POST", f"/v2/schema/{key}/src/roles", {"key": "viewer", "name": "Viewer", "permissions": ["doc:read", "doc:write"]}))
    stat = lambda x: (x.stats.resources, x.stats.roles, x.stats.policies, x.stats.tenants, x.stats.users, x.stats.has_decision_logs, x.stats.mau)  # noqa: E731
    await r.call("api.environments.get_stats", lambda: en.get_stats(key, "src"),
                 lambda x: (eq(x.key, "src", "key"), eq(stat(x), (1, 2, 3, 1, 0, False, 0), "stats (resources, roles, policies, tenants, users, logs, mau)")))
    await r.call("api.environments.copy", lambda: en.copy(key, "src", {"target_env": {"new": {"key": "dst", "name": "Copy"}}}),
                 lambda x: eq((x.key, x.name), ("dst", "Copy"), "the new environment"))
    await r.call("api.environments.get_stats", lambda: en.get_stats(key, "dst"), lambda x: eq(stat(x), (1, 2, 3, 1, 0, False, 0), "copied stats"))
    # The target changed: a copy that fails on conflicts changes nothing (409); overwrite replaces.
    await r.call("PATCH .../roles/viewer (dst)", lambda: admin("PATCH", f"/v2/schema/{key}/dst/roles/viewer", {"permissions": ["doc:read"]}))
    await r.refused("api.environments.copy", lambda: en.copy(key, "src", {"target_env": {"existing": "dst"}, "conflict_strategy": "fail"}), 409)
    await r.call("api.environments.get_stats", lambda: en.get_stats(key, "dst"), lambda x: eq(x.stats.policies, 2, "policies after the refused copy"))
    await r.call("api.environments.copy", lambda: en.copy(key, "src", {"target_env": {"existing": "dst"}, "conflict_strategy": "overwrite",
                                                                       "scope": {"roles": {"include": ["view*"]}, "resources": {"exclude": ["*"]}}}),
                 lambda x: eq(x.key, "dst", "key"))
    await r.call("api.environments.get_stats", lambda: en.get_stats(key, "dst"), lambda x: eq(x.stats.policies, 3, "policies after the overwrite"))
    for gone in ("src", "dst"):
        await r.call("api.environments.delete", lambda: en.delete(key, gone))
    await r.call("api.environments.delete", lambda: en.delete(key, "stage"))
    await r.gone("api.environments.get", lambda: en.get(key, "stage"))
    r.area = "projects"
    await r.call("api.projects.delete", lambda: pr.delete(key))
    await r.gone("api.projects.get", lambda: pr.get(key))


# --------------------------------------------------------------------------------------------
# read mode: the reads, on a graph written by the previous version (test/permit-python/upgradeFixture.ts)


async def read_only(r: Run, permit: Permit) -> None:
    api = permit.api
    r.area = "upgraded graph"
    await r.call("api.tenants.list", lambda: api.tenants.list(), lambda x: expect({"acme", "globex"} <= set(keys_of(x)), f"tenants {keys_of(x)}"))
    await r.call("api.tenants.get", lambda: api.tenants.get("acme"), lambda x: eq(x.attributes, {"plan": "gold"}, "attributes"))
    await r.call("api.users.list", lambda: api.users.list(), lambda x: eq(keys_of(x.data), ["ana", "sam"], "users"))
    await r.call("api.users.get", lambda: api.users.get("ana"),
                 lambda x: eq(sorted((t.tenant, tuple(t.roles)) for t in (x.associated_tenants or [])), [("acme", ("writer",))], "associated_tenants"))
    await r.call("api.tenants.list_tenant_users", lambda: api.tenants.list_tenant_users("globex"), lambda x: eq(keys_of(x.data), ["sam"], "tenant users"))
    await r.call("api.resources.list", lambda: api.resources.list(), lambda x: expect({"doc", "folder"} <= set(keys_of(x)), f"resources {keys_of(x)}"))
    await r.call("api.resources.get", lambda: api.resources.get("doc"), lambda x: eq(sorted(x.actions.keys()), ["read", "write"], "actions"))
    await r.call("api.resource_actions.list", lambda: api.resource_actions.list("doc"), lambda x: eq(keys_of(x), ["read", "write"], "actions"))
    await r.call("api.roles.list", lambda: api.roles.list(), lambda x: expect({"reader", "writer"} <= set(keys_of(x)), f"roles {keys_of(x)}"))
    await r.call("api.roles.get", lambda: api.roles.get("writer"), lambda x: eq((x.permissions, x.extends), (["doc:write"], ["reader"]), "writer"))
    await r.call("api.resource_roles.list", lambda: api.resource_roles.list("doc"), lambda x: eq(keys_of(x), ["viewer"], "doc roles"))
    await r.call("api.resource_roles.get", lambda: api.resource_roles.get("doc", "viewer"),
                 lambda x: eq([(d.role, d.on_resource, d.linked_by_relation) for d in x.granted_to.users_with_role], [("viewer", "folder", "parent")], "derivations"))
    await r.call("api.resource_relations.list", lambda: api.resource_relations.list("doc"), lambda x: eq(keys_of(x.data), ["parent"], "relations"))
    await r.call("api.resource_instances.list", lambda: api.resource_instances.list(tenant_key="acme"), lambda x: eq(keys_of(x), ["readme", "root"], "instances"))
    await r.call("api.resource_instances.get", lambda: api.resource_instances.get("doc:readme"), lambda x: eq(x.attributes, {"lang": "en"}, "attributes"))
    await r.call("api.role_assignments.list", lambda: api.role_assignments.list(),
                 lambda x: eq(sorted((a.user, a.role, a.tenant, a.resource_instance) for a in x),
                              [("ana", "writer", "acme", None), ("sam", "reader", "globex", None), ("sam", "viewer", "acme", "folder:root")], "assignments"))
    await r.call("api.users.get_assigned_roles", lambda: api.users.get_assigned_roles("ana", tenant="acme"), lambda x: eq([a.role for a in x], ["writer"], "roles"))
    await r.call("api.relationship_tuples.list", lambda: api.relationship_tuples.list(),
                 lambda x: eq([(t.subject, t.relation, t.object) for t in x], [("folder:root", "parent", "doc:readme")], "tuples"))
    await r.call("check", lambda: permit.check("ana", "write", {"type": "doc", "key": "readme", "tenant": "acme"}), lambda x: eq(x, True, "writer in acme"))
    await r.call("check", lambda: permit.check("sam", "read", {"type": "doc", "key": "readme", "tenant": "acme"}), lambda x: eq(x, True, "viewer through the parent folder"))
    await r.call("check", lambda: permit.check("sam", "write", {"type": "doc", "key": "readme", "tenant": "acme"}), lambda x: eq(x, False, "no write for sam"))
    await r.call("get_user_permissions", lambda: permit.get_user_permissions("ana"), lambda x: eq(x["__tenant:acme"]["roles"], ["writer"], "roles in acme"))
    await r.call("authorized_users", lambda: permit.authorized_users("read", {"type": "doc", "key": "readme", "tenant": "acme"}),
                 lambda x: eq(sorted(x.users.keys()), ["ana", "sam"], "readers of readme"))
    await r.call("elements.login_as", lambda: permit.elements.login_as("ana", "acme"), lambda x: eq(x.content, {"url": x.redirect_url}, "content"))


async def main() -> None:
    permit = Permit(pdp=URL, api_url=URL, token=ENV_TOKEN)
    emit({"surface": surface(permit)})
    r = Run()
    if MODE == "read":
        await read_only(r, permit)
    else:
        org = Permit(pdp=URL, api_url=URL, token=ORG_TOKEN)
        await full(r, permit, org)
    emit({"done": True})


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        sys.exit(1)
