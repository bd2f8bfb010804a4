// Renders the service's own OpenAPI document; every asset is served by the service (no CDN).
window.addEventListener('DOMContentLoaded', () => {
  window.SwaggerUIBundle({ url: '/v2/openapi.json', dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null });
});
