// Renders the service's own OpenAPI document; every asset is served by the service (no CDN).
window.addEventListener('DOMContentLoaded', () => {
  // Tags start closed: the document has ~170 operations, and resolving all of them at once takes seconds.
  window.SwaggerUIBundle({ url: '/v2/openapi.json', dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null, docExpansion: 'none' });
});
