"""Model: uagents-core's message model without pydantic. Fields come from class annotations; the JSON schema is
pydantic v1's (what uagents-core hashes), so `build_schema_digest` gives the same digests as uagents-core."""

import hashlib
import inspect
import json
import types
import typing
import uuid
from datetime import date, datetime
from typing import Any, Literal, Union

__all__ = ["Model", "Field", "UUID4", "ErrorMessage", "ERROR_MESSAGE_DIGEST", "ValidationError"]


class ValidationError(ValueError):
    pass


class UUID4(uuid.UUID):
    """pydantic's UUID4: a UUID written with format `uuid4` in the schema."""


class _Missing:
    def __repr__(self):
        return "..."


_MISSING = _Missing()


class FieldInfo:
    def __init__(self, default=_MISSING, *, default_factory=None, title=None, description=None, **_ignored):
        self.default = _MISSING if default is Ellipsis else default
        self.default_factory = default_factory
        self.title = title
        self.description = description


def Field(default=_MISSING, **kwargs) -> Any:
    return FieldInfo(default, **kwargs)


class _Field:
    def __init__(self, name, annotation, info: FieldInfo):
        self.name = name
        self.annotation = annotation
        self.info = info

    @property
    def required(self):
        return self.info.default is _MISSING and self.info.default_factory is None and not _is_optional(self.annotation)

    def default(self):
        if self.info.default_factory is not None:
            return self.info.default_factory()
        return None if self.info.default is _MISSING else self.info.default


def _is_union(annotation) -> bool:
    return typing.get_origin(annotation) in (Union, types.UnionType)


def _is_optional(annotation) -> bool:
    return _is_union(annotation) and type(None) in typing.get_args(annotation)


def _is_model(annotation) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, Model)


def _title(name: str) -> str:
    return name.title().replace("_", " ")


def _type_schema(annotation, definitions: dict) -> dict:
    """One field's type as pydantic v1 writes it (definitions collects nested models)."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if _is_union(annotation):
        variants = [variant for variant in args if variant is not type(None)]
        if len(variants) == 1:
            return _type_schema(variants[0], definitions)
        return {"anyOf": [_type_schema(variant, definitions) for variant in variants]}
    if origin is Literal:
        schema = {"enum": list(args)}
        kinds = {type(value) for value in args}
        if len(kinds) == 1:
            schema["type"] = {str: "string", int: "integer", float: "number", bool: "boolean"}.get(kinds.pop(), "string")
        return schema
    if origin in (list, typing.List, set, frozenset, tuple):
        return {"type": "array", "items": _type_schema(args[0], definitions) if args else {}}
    if origin in (dict, typing.Dict):
        return {"type": "object", "additionalProperties": _type_schema(args[1], definitions)} if args else {"type": "object"}
    if _is_model(annotation):
        definitions[annotation.__name__] = annotation._schema(definitions)
        return {"$ref": f"#/definitions/{annotation.__name__}"}
    simple = {
        str: {"type": "string"},
        bool: {"type": "boolean"},
        int: {"type": "integer"},
        float: {"type": "number"},
        UUID4: {"type": "string", "format": "uuid4"},
        uuid.UUID: {"type": "string", "format": "uuid"},
        datetime: {"type": "string", "format": "date-time"},
        date: {"type": "string", "format": "date"},
        list: {"type": "array", "items": {}},
        dict: {"type": "object"},
    }
    if annotation in simple:
        return dict(simple[annotation])
    if annotation is Any:
        return {}
    raise TypeError(f"a Model field of type {annotation!r} has no uAgents schema here")


def _validate(annotation, value, where: str):
    """The value as the field's type, converted from JSON where pydantic v1 would; ValidationError otherwise."""
    if _is_union(annotation):
        if value is None and type(None) in typing.get_args(annotation):
            return None
        errors = []
        for variant in typing.get_args(annotation):
            if variant is type(None):
                continue
            try:
                return _validate(variant, value, where)
            except ValidationError as error:
                errors.append(str(error))
        raise ValidationError(f"{where}: no variant matches ({'; '.join(errors)})")
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is Literal:
        if value not in args:
            raise ValidationError(f"{where}: expected one of {list(args)}")
        return value
    if origin in (list, typing.List, set, frozenset, tuple) or annotation is list:
        if not isinstance(value, (list, tuple)):
            raise ValidationError(f"{where}: expected a list")
        item = args[0] if args else Any
        return [_validate(item, element, f"{where}[{index}]") for index, element in enumerate(value)]
    if origin in (dict, typing.Dict) or annotation is dict:
        if not isinstance(value, dict):
            raise ValidationError(f"{where}: expected an object")
        item = args[1] if args else Any
        return {key: _validate(item, element, f"{where}.{key}") for key, element in value.items()}
    if _is_model(annotation):
        if isinstance(value, annotation):
            return value
        if not isinstance(value, dict):
            raise ValidationError(f"{where}: expected an object ({annotation.__name__})")
        return annotation._from_data(value, where)
    if annotation is Any:
        return value
    if annotation is bool:
        if isinstance(value, bool):
            return value
    elif annotation is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
    elif annotation is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    elif annotation is str:
        if isinstance(value, str):
            return value
    elif annotation in (UUID4, uuid.UUID):
        try:
            return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))
        except ValueError:
            pass
    elif annotation in (datetime, date):
        if isinstance(value, annotation):
            return value
        if isinstance(value, str):
            try:
                return annotation.fromisoformat(value)
            except ValueError:
                pass
    else:
        return value
    raise ValidationError(f"{where}: expected {getattr(annotation, '__name__', annotation)}")


def _plain(value):
    """A field value as JSON data, as pydantic v1's `.dict()` then `.json()` write it."""
    if isinstance(value, Model):
        return value.dict()
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    return value


class Model:
    """A message model: `class Ping(Model): text: str`. Fields are the class annotations (inherited ones first)."""

    def __init__(self, **data):
        self._assign(data, type(self).__name__)

    @classmethod
    def _fields(cls) -> list:
        cached = cls.__dict__.get("__model_fields__")
        if cached is not None:
            return cached
        fields = {}
        for klass in reversed(cls.__mro__):
            if not (isinstance(klass, type) and issubclass(klass, Model)) or klass is Model:
                continue
            hints = typing.get_type_hints(klass)
            for name in klass.__dict__.get("__annotations__", {}):
                if name.startswith("_") or typing.get_origin(hints[name]) is typing.ClassVar:
                    continue
                default = klass.__dict__.get(name, _MISSING)
                fields[name] = _Field(name, hints[name], default if isinstance(default, FieldInfo) else FieldInfo(default))
        cls.__model_fields__ = list(fields.values())
        return cls.__model_fields__

    def _assign(self, data: dict, where: str):
        # Unknown keys are ignored, as pydantic v1 ignores them.
        for field in self._fields():
            if field.name in data:
                value = _validate(field.annotation, data[field.name], f"{where}.{field.name}")
            elif field.required:
                raise ValidationError(f"{where}.{field.name}: field required")
            else:
                value = field.default()
            object.__setattr__(self, field.name, value)

    @classmethod
    def _from_data(cls, data: dict, where: str = ""):
        instance = cls.__new__(cls)
        instance._assign(data, where or cls.__name__)
        return instance

    def dict(self) -> dict:
        return {field.name: _plain(getattr(self, field.name)) for field in self._fields()}

    def json(self) -> str:
        return json.dumps(self.dict())

    def model_dump(self) -> dict:
        return self.dict()

    def model_dump_json(self) -> str:
        return self.json()

    @classmethod
    def parse_obj(cls, obj):
        return obj if isinstance(obj, cls) else cls._from_data(obj)

    @classmethod
    def parse_raw(cls, text):
        return cls._from_data(json.loads(text))

    model_validate = parse_obj
    model_validate_json = parse_raw

    @classmethod
    def _schema(cls, definitions: dict) -> dict:
        properties, required = {}, []
        for field in cls._fields():
            schema = _type_schema(field.annotation, definitions)
            if "$ref" not in schema:
                schema = {"title": field.info.title or _title(field.name), **schema}
            if field.info.description:
                schema["description"] = field.info.description
            default = field.info.default
            if default is not _MISSING and default is not None:
                schema["default"] = _plain(default)
            properties[field.name] = schema
            if field.required:
                required.append(field.name)
        schema = {"title": cls.__name__, "type": "object", "properties": properties}
        if required:
            schema["required"] = required
        doc = inspect.getdoc(cls)
        if doc:
            schema["description"] = doc
        return schema

    @classmethod
    def schema(cls) -> dict:
        definitions = {}
        schema = cls._schema(definitions)
        if definitions:
            schema["definitions"] = definitions
        return schema

    @classmethod
    def schema_json(cls, indent=None, sort_keys=False) -> str:
        return json.dumps(cls.schema(), indent=indent, sort_keys=sort_keys)

    model_json_schema = schema_json

    @staticmethod
    def build_schema_digest(model) -> str:
        schema = model.schema_json(indent=None, sort_keys=True)
        return "model:" + hashlib.sha256(schema.encode("utf8")).hexdigest()

    def __eq__(self, other):
        return type(other) is type(self) and other.dict() == self.dict()

    def __repr__(self):
        fields = ", ".join(f"{field.name}={getattr(self, field.name)!r}" for field in self._fields())
        return f"{type(self).__name__}({fields})"


# pydantic v1's BaseModel has an empty docstring, so a model without one has no description in its schema.
Model.__doc__ = ""


class ErrorMessage(Model):
    """Error message model"""

    error: str


ERROR_MESSAGE_DIGEST = Model.build_schema_digest(ErrorMessage)
